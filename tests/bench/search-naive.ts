/**
 * The naive search (a reference for tests and the baseline of `npm run bench:search`): for every
 * query it normalises every instrument's code, name and English name afresh and tests each rule of
 * contract/search.ts SEARCH_MATCHES literally, in order, with regular expressions built from the
 * query, then sorts by (rank, popularity desc, code). No precomputed keys. It must give exactly
 * the results of server/modules/search/directory.ts searchDirectory.
 */
import type { Instrument } from '../../contract/market';
import { SEARCH_MATCHES, type SearchHit, type SearchMatch } from '../../contract/search';

const norm = (s: string) => s.normalize('NFKC').toUpperCase().replace(/\s+/gu, '');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TYPE: Record<string, string> = { etf: 'ETF', etn: 'ETN', reit: 'REIT', tdr: 'TDR' };

function naiveMatch(inst: Instrument, q: string): SearchMatch | null {
  const code = inst.symbol.toUpperCase();
  const noZeros = /^0+/.test(code) ? code.replace(/^0+/, '') : null;
  const names = inst.nameEn ? [inst.name, inst.nameEn] : [inst.name];
  const normed = names.map(norm);
  const words = names.flatMap(
    (n) =>
      n
        .normalize('NFKC')
        .toUpperCase()
        .match(/[A-Z][A-Z0-9&+]*/g) ?? [],
  );
  const prefix = new RegExp(`^${escape(q)}`);
  const tests: Array<[SearchMatch, boolean]> = [
    ['code', code === q],
    ['codeNoZeros', noZeros === q],
    ['codePrefix', prefix.test(code)],
    ['codeNoZerosPrefix', noZeros !== null && prefix.test(noZeros)],
    ['namePrefix', normed.some((n) => prefix.test(n))],
    ['nameWord', words.some((w) => prefix.test(w))],
    ['nameSubstring', normed.some((n) => new RegExp(escape(q)).test(n))],
    ['securityType', TYPE[inst.securityType] === q],
  ];
  return tests.find(([, hit]) => hit)?.[0] ?? null;
}

/** See the module docstring. */
export function naiveSearch(
  instruments: readonly Instrument[],
  query: string,
  popularity: (symbol: string) => number,
  limit: number,
): { items: SearchHit[]; total: number } {
  const q = norm(query);
  if (!q) return { items: [], total: 0 };
  const all = instruments
    .map((inst) => ({ inst, match: naiveMatch(inst, q) }))
    .filter((x): x is { inst: Instrument; match: SearchMatch } => x.match !== null)
    .sort(
      (a, b) =>
        SEARCH_MATCHES.indexOf(a.match) - SEARCH_MATCHES.indexOf(b.match) ||
        popularity(b.inst.symbol) - popularity(a.inst.symbol) ||
        (a.inst.symbol < b.inst.symbol ? -1 : a.inst.symbol > b.inst.symbol ? 1 : 0),
    );
  return {
    total: all.length,
    items: all.slice(0, limit).map(({ inst, match }) => ({
      symbol: inst.symbol,
      name: inst.name,
      nameEn: inst.nameEn,
      market: inst.market,
      securityType: inst.securityType,
      match,
    })),
  };
}
