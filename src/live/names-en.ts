/**
 * Instrument names in the reader's language. The exchange publishes an English short name
 * (英文簡稱, e.g. 2330 → 'TSMC') for most companies and none for ETFs; the server sends it with
 * every market list page (`namesEn`), instrument detail and search hit (`nameEn`), never in the
 * quote stream. Pages record theirs here (`recordNamesEn`), and a row shows
 * `instrumentName(...)`: the English name in English when there is one, the Chinese name
 * otherwise (and always in Chinese).
 *
 * The names are kept in one module-level map (a name never changes during a session) with a
 * version counter; `useNameEn` subscribes a row to it (useSyncExternalStore), so a row re-renders
 * once when a page brings its name, and never for a quote.
 */
import { useSyncExternalStore } from 'react';

export { instrumentName, type NamedInstrument } from './instrument-name';

const names = new Map<string, string>();
const listeners = new Set<() => void>();

/** Records English short names by symbol (a list page's `namesEn`, a detail's `nameEn`). */
export function recordNamesEn(bySymbol: Readonly<Record<string, string>>): void {
  let changed = false;
  for (const [symbol, name] of Object.entries(bySymbol)) {
    if (names.get(symbol) === name) continue;
    names.set(symbol, name);
    changed = true;
  }
  if (changed) for (const l of listeners) l();
}

/** The English short names of search hits (or any named rows), by symbol; rows without one left out. */
export function namesEnOfHits(
  rows: ReadonlyArray<{ symbol: string; nameEn?: string | null }>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.nameEn) out[r.symbol] = r.nameEn;
  return out;
}

/** The English short name recorded for `symbol`, or null. */
export function nameEnOf(symbol: string): string | null {
  return names.get(symbol) ?? null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The recorded English short name of `symbol` (null until a page brings one, or none exists). */
export function useNameEn(symbol: string): string | null {
  return useSyncExternalStore(
    subscribe,
    () => nameEnOf(symbol),
    () => nameEnOf(symbol),
  );
}
