/**
 * Search over the whole shipped directory (server/db/seed-data: ~2,400 instruments), ranked as
 * contract/search.ts says, with the real last day of the full-market window's turnover as the
 * popularity tie-breaker (what a user sees mid-session, when the replayed turnover has built up):
 * - what a user expects first: '2330', '23' and '台積' → 2330; '0050' → 0050; '878' → 00878 (ETF
 *   codes are said without their zeros); '50' → 0050 before any 50xx;
 * - Latin text inside names: 'ky' and full-width 'ＫＹ' find every '-KY' company (and every
 *   English name containing KY), 'esg bbb' a fund named 'ESG BBB', 'etf' the ETFs;
 * - the exchange's English short names (seed-data/reference/instrument_names_en.csv), in any case:
 *   'tsmc' → 2330 TSMC, 'mediatek' → 2454, 'hai' → 2317 HON HAI by a word;
 * - results are ordered by match kind, then popularity, then code; `total` counts every match;
 * - the indexed search equals a naive from-scratch scan (tests/bench/search-naive.ts) on every
 *   code's first two characters, every name's first character and random queries (fast-check,
 *   seed printed).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Instrument } from '../../contract/market';
import { SEARCH_MATCHES } from '../../contract/search';
import { buildSearchIndex, searchDirectory, type SearchIndex } from '../../server/modules/search/directory';
import { naiveSearch } from '../bench/search-naive';
import { loadSeedDirectory } from '../support/seed-directory';

let directory: Instrument[];
let index: SearchIndex;
let turnover = new Map<string, number>();
const pop = (s: string) => turnover.get(s) ?? -1;
const find = (q: string, limit = 30) => searchDirectory(index, q, pop, limit);

beforeAll(async () => {
  ({ directory, turnover } = await loadSeedDirectory());
  index = buildSearchIndex(directory);
}, 60_000);

describe('what a user expects first', () => {
  it('finds the whole directory', () => {
    expect(directory.length).toBeGreaterThan(2_200);
  });

  it.each([
    ['2330', '2330', 'code'],
    ['23', '2330', 'codePrefix'],
    ['台積', '2330', 'namePrefix'],
    ['台積電', '2330', 'namePrefix'],
    ['0050', '0050', 'code'],
    ['878', '00878', 'codeNoZeros'],
    ['00878', '00878', 'code'],
    ['50', '0050', 'codeNoZeros'],
    ['元大台灣50', '0050', 'namePrefix'],
    [' 2330 ', '2330', 'code'],
  ])('%s → %s first (%s)', (q, symbol, match) => {
    const r = find(q);
    expect(r.items[0]).toMatchObject({ symbol, match });
  });

  it("'23' lists the 23xx codes, most traded first, before any name match", () => {
    const r = find('23', 50);
    const prefix = r.items.filter((h) => h.match === 'codePrefix');
    expect(prefix.length).toBeGreaterThan(20);
    expect(prefix.every((h) => h.symbol.startsWith('23'))).toBe(true);
    const pops = prefix.map((h) => pop(h.symbol));
    expect([...pops].sort((a, b) => b - a)).toEqual(pops);
  });

  it("'積電' finds 台積電 inside the name", () => {
    expect(find('積電').items.map((h) => [h.symbol, h.match])).toContainEqual(['2330', 'nameSubstring']);
  });
});

describe("the exchange's English short names", () => {
  it('the directory carries them (2330 TSMC) and none for an ETF', () => {
    expect(directory.find((i) => i.symbol === '2330')?.nameEn).toBe('TSMC');
    expect(directory.find((i) => i.symbol === '0050')?.nameEn).toBeNull();
    expect(directory.filter((i) => i.nameEn).length).toBeGreaterThan(1_900);
  });

  it.each([
    ['tsmc', '2330', 'namePrefix'],
    ['TSMC', '2330', 'namePrefix'],
    ['ｔｓｍｃ', '2330', 'namePrefix'],
    ['mediatek', '2454', 'namePrefix'],
    ['hon hai', '2317', 'namePrefix'],
  ] as const)("'%s' finds %s first (%s)", (q, symbol, match) => {
    expect(find(q).items[0]).toMatchObject({ symbol, match });
  });

  it("a hit carries the English name; 'hai' finds HON HAI by a word", () => {
    expect(find('tsmc').items[0]).toMatchObject({ name: '台積電', nameEn: 'TSMC' });
    expect(find('hai', 50).items).toContainEqual(
      expect.objectContaining({ symbol: '2317', nameEn: 'HON HAI', match: 'nameWord' }),
    );
  });
});

describe('Latin text inside names', () => {
  const hasKy = (n: string | null) => n !== null && /KY/.test(n.normalize('NFKC').toUpperCase());
  const kyNames = () => directory.filter((i) => hasKy(i.name) || hasKy(i.nameEn));

  it("'ky', 'KY' and full-width 'ＫＹ' find every -KY company (and English names with KY)", () => {
    expect(directory.filter((i) => hasKy(i.name)).length).toBeGreaterThan(100);
    for (const q of ['ky', 'KY', 'ＫＹ', 'Ｋy']) {
      const r = find(q, 50);
      expect(r.total).toBe(kyNames().length);
      expect(r.items.every((h) => hasKy(h.name) || hasKy(h.nameEn))).toBe(true);
    }
  });

  it("a word after Chinese text matches by its start: 'tpk' → TPK-KY, 'esg bbb' → 凱基ESG BBB 債 15+", () => {
    expect(find('tpk').items[0]).toMatchObject({ name: 'TPK-KY', match: 'namePrefix' });
    const esg = find('esg bbb').items.map((h) => h.name);
    expect(esg).toContain('凱基ESG BBB 債 15+');
    expect(find('bbb').items.every((h) => h.match === 'nameWord' || h.match === 'nameSubstring')).toBe(true);
  });

  it("'etf' lists ETFs (the security type) after any name containing it", () => {
    const r = find('etf', 50);
    expect(r.total).toBeGreaterThanOrEqual(directory.filter((i) => i.securityType === 'etf').length);
    expect(r.items.every((h) => h.securityType === 'etf')).toBe(true);
  });

  it('finds nothing for blank text or a code that does not exist', () => {
    expect(find('   ')).toEqual({ items: [], total: 0 });
    expect(find('99999999').total).toBe(0);
  });
});

describe('order and limits', () => {
  it('orders by match kind, then popularity, then code, and counts every match', () => {
    for (const q of ['2', '00', '1', '台', '金', '電', 'A']) {
      const all = find(q, 10_000);
      const r = find(q, 30);
      expect(r.total).toBe(all.items.length);
      expect(r.items).toEqual(all.items.slice(0, 30));
      const keys = all.items.map((h) => [SEARCH_MATCHES.indexOf(h.match), -pop(h.symbol), h.symbol] as const);
      const sorted = [...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : 1));
      expect(keys).toEqual(sorted);
    }
  });
});

/**
 * The naive scan normalises two names (Chinese and English) per instrument and query, ~1,100
 * queries × 2,400 instruments: 20–60 s alone, minutes on a loaded 2-core machine.
 */
const NAIVE_TIMEOUT_MS = 300_000;

describe('the index equals a naive scan', () => {
  it(
    "on every code's first two characters and every name's (and English name's) first character",
    () => {
      const queries = new Set<string>();
      for (const i of directory) {
        queries.add(i.symbol.slice(0, 2)).add(i.name.slice(0, 1));
        if (i.nameEn) queries.add(i.nameEn.slice(0, 1));
      }
      for (const q of queries) expect(find(q, 40), q).toEqual(naiveSearch(directory, q, pop, 40));
    },
    NAIVE_TIMEOUT_MS,
  );

  it(
    'on random queries (fast-check; the seed is printed)',
    () => {
      const seed = Date.now() % 2 ** 31;
      console.log(`search fuzz seed ${seed}`);
      const pieces = fc.constantFrom(
        ...'0123456789ABKYLRUTESGMCH台積電元大金控高股息國泰 -ＫＹ+&'.split(''),
        'ESG',
        'tsmc',
        'hai',
        '00',
        '-KY',
      );
      fc.assert(
        fc.property(
          fc.array(pieces, { minLength: 1, maxLength: 5 }),
          fc.integer({ min: 1, max: 50 }),
          (parts, n) => {
            const q = parts.join('');
            expect(find(q, n)).toEqual(naiveSearch(directory, q, pop, n));
          },
        ),
        { seed, numRuns: 300 },
      );
    },
    NAIVE_TIMEOUT_MS,
  );
});
