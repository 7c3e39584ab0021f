/**
 * Search over the instrument directory (MarketFeed.instruments(), ~2,400 rows): the matching and
 * ranking rules of contract/search.ts, on keys normalised once per directory.
 *
 * Normalisation (queries and names alike): Unicode NFKC (full-width 'ＫＹ' → 'KY', as phone
 * keyboards in Chinese mode type Latin letters), upper case, and every space removed ('凱基ESG
 * BBB 債 15+' is found by 'esgbbb' or 'ESG BBB'). Chinese characters pass through unchanged.
 * The exchange's English short name is searched like the Chinese one ('tsmc' → 2330 TSMC, 'hai'
 * → 2317 HON HAI as a word), so the match is case-insensitive for Latin letters.
 *
 * Ranking: the best SEARCH_MATCHES rank an instrument reaches, then `popularity` (higher first:
 * the handlers pass the replayed day's turnover so far, TWD minor), then the code. One pass over
 * the directory with string prefix/substring tests; the cost is ~0.1 ms per query here
 * (`npm run bench:search`).
 */
import type { Instrument, SecurityType } from '../../../contract/market';
import { SEARCH_MATCHES, type SearchHit, type SearchMatch } from '../../../contract/search';

/** One directory row with its normalised keys. */
export interface SearchEntry {
  inst: Instrument;
  /** The code, upper case. */
  code: string;
  /** The code without its leading zeros ('00878' → '878'); '' when the code has none. */
  codeNoZeros: string;
  /** The name, normalised (see the module docstring). */
  name: string;
  /** The English short name, normalised ('' when there is none). */
  nameEn: string;
  /**
   * The Latin/digit words inside the name and the English name, normalised ('台耀-KY' → ['KY'];
   * 'HON HAI' → ['HON', 'HAI']).
   */
  words: string[];
  /** The security type's name as a user types it: 'ETF', 'ETN', 'REIT', 'TDR', or null. */
  typeWord: string | null;
}

/** A directory prepared for search (buildSearchIndex). */
export interface SearchIndex {
  entries: SearchEntry[];
}

const RANK: Record<SearchMatch, number> = Object.fromEntries(SEARCH_MATCHES.map((m, i) => [m, i])) as Record<
  SearchMatch,
  number
>;

const TYPE_WORDS: Partial<Record<SecurityType, string>> = {
  etf: 'ETF',
  etn: 'ETN',
  reit: 'REIT',
  tdr: 'TDR',
};

/** NFKC, upper case, no whitespace: the form both queries and names are compared in. */
export function normalizeSearchText(s: string): string {
  return s.normalize('NFKC').toUpperCase().replace(/\s+/gu, '');
}

/** The Latin/digit runs of a name, normalised: '凱基ESG BBB 債 15+' → ['ESG', 'BBB', '15']. */
function latinWords(name: string): string[] {
  return (
    name
      .normalize('NFKC')
      .toUpperCase()
      .match(/[A-Z][A-Z0-9&+]*/g) ?? []
  );
}

/** Prepares a directory for search (O(n); keep the result while the directory is the same). */
export function buildSearchIndex(instruments: readonly Instrument[]): SearchIndex {
  return {
    entries: instruments.map((inst) => {
      const code = inst.symbol.toUpperCase();
      const stripped = code.replace(/^0+/, '');
      return {
        inst,
        code,
        codeNoZeros: stripped === code ? '' : stripped,
        name: normalizeSearchText(inst.name),
        nameEn: inst.nameEn ? normalizeSearchText(inst.nameEn) : '',
        words: [...latinWords(inst.name), ...(inst.nameEn ? latinWords(inst.nameEn) : [])],
        typeWord: TYPE_WORDS[inst.securityType] ?? null,
      };
    }),
  };
}

/** How `e` matches the normalised query `q` (its best match), or null when it does not. */
export function matchOf(e: SearchEntry, q: string): SearchMatch | null {
  if (e.code === q) return 'code';
  if (e.codeNoZeros === q) return 'codeNoZeros';
  if (e.code.startsWith(q)) return 'codePrefix';
  if (e.codeNoZeros && e.codeNoZeros.startsWith(q)) return 'codeNoZerosPrefix';
  if (e.name.startsWith(q) || (e.nameEn && e.nameEn.startsWith(q))) return 'namePrefix';
  for (const w of e.words) if (w.startsWith(q)) return 'nameWord';
  if (e.name.includes(q) || e.nameEn.includes(q)) return 'nameSubstring';
  if (e.typeWord === q) return 'securityType';
  return null;
}

/**
 * The best `limit` matches of `query` in rank order, and how many matched in all.
 *
 * @param query the user's text (normalised here); an empty normal form matches nothing.
 * @param popularity a number per symbol, higher ranks first within a match kind (e.g. turnover).
 */
export function searchDirectory(
  index: SearchIndex,
  query: string,
  popularity: (symbol: string) => number,
  limit: number,
): { items: SearchHit[]; total: number } {
  const q = normalizeSearchText(query);
  if (!q) return { items: [], total: 0 };
  const found: Array<{ e: SearchEntry; rank: number; pop: number; match: SearchMatch }> = [];
  for (const e of index.entries) {
    const match = matchOf(e, q);
    if (match) found.push({ e, rank: RANK[match], pop: popularity(e.inst.symbol), match });
  }
  found.sort(
    (a, b) => a.rank - b.rank || b.pop - a.pop || (a.e.code < b.e.code ? -1 : a.e.code > b.e.code ? 1 : 0),
  );
  return {
    total: found.length,
    items: found.slice(0, limit).map(({ e, match }) => ({
      symbol: e.inst.symbol,
      name: e.inst.name,
      nameEn: e.inst.nameEn,
      market: e.inst.market,
      securityType: e.inst.securityType,
      match,
    })),
  };
}

const indexes = new WeakMap<readonly Instrument[], SearchIndex>();

/** The index of a directory array, built once per array (the feed keeps one for its lifetime). */
export function searchIndexOf(instruments: readonly Instrument[]): SearchIndex {
  let ix = indexes.get(instruments);
  if (!ix) indexes.set(instruments, (ix = buildSearchIndex(instruments)));
  return ix;
}
