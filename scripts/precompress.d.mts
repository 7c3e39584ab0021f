/** Types of scripts/precompress.mjs (see its docstring). */
export interface PrecompressedFile {
  /** Path relative to the directory, with forward slashes. */
  file: string;
  /** Original size in bytes. */
  bytes: number;
  /** Size of the `.br` variant in bytes, or null when it was not worth writing. */
  br: number | null;
  /** Size of the `.gz` variant in bytes, or null when it was not worth writing. */
  gz: number | null;
}
/** Writes `.br` and `.gz` next to every compressible file under `dir`; one row per such file. */
export function precompressDir(dir: string): PrecompressedFile[];
