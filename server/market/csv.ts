/**
 * Minimal CSV reading for the bundled seed data (server/db/seed-data, described in its
 * PROVENANCE.md): UTF-8, comma-separated, one header row, `\n` line endings, ISO dates, `.` as the
 * decimal point, empty cell = "not available".
 *
 * The shipped files contain no quoted fields (checked 2026-11-21), but the parser still follows
 * RFC 4180 so a future file with a quoted comma or a doubled quote does not silently shift
 * columns: `"a,b"` is one field, `""` inside quotes is a literal quote, CRLF is accepted and a
 * leading UTF-8 BOM is dropped.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of server/db/seed-data (the bundled real data set: PROVENANCE.md there). */
export const SEED_DATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../db/seed-data');

/** Absolute path of a file under server/db/seed-data, e.g. `seedDataPath('daily', 'x.csv')`. */
export function seedDataPath(...parts: string[]): string {
  return path.join(SEED_DATA_DIR, ...parts);
}

/**
 * Parses CSV text into rows of string cells (RFC 4180 quoting; BOM and CRLF tolerated).
 * A trailing newline does not produce an empty last row; blank lines are skipped.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  const endRow = () => {
    row.push(field);
    field = '';
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  while (i < n) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      inQuotes = true;
      i++;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\n' || ch === '\r') {
      endRow();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      // Fast path: copy a run of plain characters at once.
      let j = i + 1;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === 44 /* , */ || c === 10 || c === 13 || c === 34 /* " */) break;
        j++;
      }
      field += text.slice(i, j);
      i = j;
    }
  }
  if (inQuotes) throw new SyntaxError('CSV: unterminated quoted field');
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** One CSV record keyed by the header row's column names. */
export type CsvRecord = Record<string, string>;

/**
 * Turns parsed rows into records keyed by the header. Throws when a row's cell count differs
 * from the header's (a sign of an unquoted comma), naming the line.
 */
export function toRecords(rows: string[][], source = 'CSV'): CsvRecord[] {
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((cells, idx) => {
    if (cells.length !== header.length) {
      throw new SyntaxError(
        `${source}: line ${idx + 2} has ${cells.length} cells, header has ${header.length}`,
      );
    }
    const rec: CsvRecord = {};
    for (let c = 0; c < header.length; c++) rec[header[c]!] = cells[c]!;
    return rec;
  });
}

/** Reads and parses a CSV file (absolute path) into header-keyed records. */
export async function readCsvRecords(file: string): Promise<CsvRecord[]> {
  return toRecords(parseCsv(await readFile(file, 'utf8')), path.basename(file));
}

/** Synchronous variant of readCsvRecords, for small reference files read once at first use. */
export function readCsvRecordsSync(file: string): CsvRecord[] {
  return toRecords(parseCsv(readFileSync(file, 'utf8')), path.basename(file));
}
