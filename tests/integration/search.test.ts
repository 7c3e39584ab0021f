/**
 * Search through the API (contract/search.ts), on PGlite and PostgreSQL:
 * - search/query is public and ranks what a user expects first ('2330', '23', '台積' → 2330;
 *   '0050' → 0050; '878' → 00878), with the current quote of each hit;
 * - history is the member's own: an opened result is listed newest first, once per instrument;
 *   another member never sees it; clearing empties only the caller's; an unknown code is refused;
 * - hot searches count members per instrument (a member's repeated opens count once) within the
 *   window, from HOT_MIN_MEMBERS members on; with none, the replayed day's most traded
 *   instruments labelled `turnover`, equal to the feed's own ranking;
 * - bad input (empty, blank, too long, control characters, limits out of range, malformed codes)
 *   is a 400 envelope with a message key and changes no table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HOT_MAX,
  HOT_MIN_MEMBERS,
  HOT_WINDOW_DAYS,
  SEARCH_HISTORY_MAX,
  SEARCH_QUERY_MAX,
} from '../../contract/search';
import { ERROR_KEYS } from '../../contract/errors';
import { startHarness, type Harness } from './harness';
import { ALL_TABLES, fingerprint } from './support/fingerprint';

/** The harness's instruments plus ETFs and stocks the ranking cases need. */
const SYMBOLS = ['2330', '2317', '0050', '00878', '0056', '2303', '2308', '00679B', '00632R', '1101', '2882'];

let h: Harness;
let a: string;
let b: string;
let c: string;

beforeAll(async () => {
  h = await startHarness({ importSymbols: SYMBOLS });
  a = await h.register('0911000001');
  b = await h.register('0911000002');
  c = await h.register('0911000003');
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const ok = (r: { http: number; body: { status: number; msg: string; data: any } }) => {
  expect(r.http, JSON.stringify(r.body)).toBe(200);
  expect(r.body.status).toBe(1);
  return r.body.data;
};
const history = async (token: string) =>
  (ok(await h.call('search/history', {}, token)).items as Array<{ symbol: string; openedAt: number }>).map(
    (e) => e.symbol,
  );
const open = async (token: string, symbol: string) =>
  ok(await h.call('search/addHistory', { symbol }, token));

describe('search/query', () => {
  it.each([
    ['2330', '2330'],
    ['23', '2330'],
    ['台積', '2330'],
    ['0050', '0050'],
    ['878', '00878'],
    ['ＫＹ', null],
  ])('%s → %s first, without a session, with quotes', async (q, first) => {
    const r = ok(await h.call('search/query', { q }));
    if (first === null) {
      expect(r).toEqual({ items: [], total: 0, quotes: [] });
      return;
    }
    expect(r.items[0].symbol).toBe(first);
    const quote = r.quotes.find((x: { symbol: string }) => x.symbol === first);
    expect(quote).toEqual(h.feed.quote(first));
  });

  it("'00' lists the ETFs by the replayed day's turnover so far, then code", async () => {
    const r = ok(await h.call('search/query', { q: '00', limit: 50 }));
    const etfs = SYMBOLS.filter((s) => s.startsWith('00'));
    expect(r.total).toBe(etfs.length);
    const turnover = (s: string) => h.feed.quote(s)?.turnoverMinor ?? -1;
    const expected = [...etfs].sort((x, y) => turnover(y) - turnover(x) || (x < y ? -1 : 1));
    expect(r.items.map((i: { symbol: string }) => i.symbol)).toEqual(expected);
  });

  it('honours the limit and counts every match', async () => {
    const r = ok(await h.call('search/query', { q: '23', limit: 2 }));
    expect(r.items).toHaveLength(2);
    expect(r.total).toBe(SYMBOLS.filter((s) => s.startsWith('23')).length);
    expect(r.total).toBe(4);
  });
});

describe('search history', () => {
  it("lists a member's opened results newest first, once each, and no one else's", async () => {
    h.wall.now += 1_000;
    await open(a, '2330');
    h.wall.now += 1_000;
    await open(a, '0050');
    h.wall.now += 1_000;
    await open(a, '2330'); // again: moves to the top, still one entry
    expect(await history(a)).toEqual(['2330', '0050']);
    const entries = ok(await h.call('search/history', {}, a)).items;
    expect(entries[0]).toMatchObject({
      symbol: '2330',
      name: '台積電',
      nameEn: 'TSMC',
      openedAt: h.wall.now,
    });
    expect(await history(b)).toEqual([]);
    await open(b, '00878');
    expect(await history(b)).toEqual(['00878']);
    expect(await history(a)).toEqual(['2330', '0050']);
  });

  it('keeps the latest SEARCH_HISTORY_MAX in the list', async () => {
    expect(SEARCH_HISTORY_MAX).toBeGreaterThanOrEqual(SYMBOLS.length);
    for (const s of SYMBOLS) {
      h.wall.now += 1_000;
      await open(c, s);
    }
    expect(await history(c)).toEqual([...SYMBOLS].reverse());
  });

  it('refuses an unknown code (404) and a malformed one (400), recording nothing', async () => {
    const before = await history(a);
    const unknown = await h.call('search/addHistory', { symbol: '9999' }, a);
    expect(unknown).toEqual({ http: 404, body: { status: 0, msg: 'productNotFound', data: null } });
    const malformed = await h.call('search/addHistory', { symbol: '23;30' }, a);
    expect(malformed.http).toBe(400);
    expect(await history(a)).toEqual(before);
  });

  it("clears the caller's history only", async () => {
    ok(await h.call('search/clearHistory', {}, c));
    expect(await history(c)).toEqual([]);
    expect(await history(a)).toEqual(['2330', '0050']);
    expect(await history(b)).toEqual(['00878']);
  });
});

describe('hot searches', () => {
  it("with fewer than HOT_MIN_MEMBERS members on any instrument: the replayed day's most traded, said so", async () => {
    // a: 2330, 0050; b: 00878 (c cleared): nothing has two members yet.
    expect(HOT_MIN_MEMBERS).toBe(2);
    const r = ok(await h.call('search/hot', {}));
    expect(r.basis).toBe('turnover');
    const quotes = h.feed.listQuotes();
    const expected = [...quotes].sort((x, y) => y.turnoverMinor - x.turnoverMinor).slice(0, HOT_MAX);
    expect(r.items).toEqual(
      expected.map((q) => ({
        symbol: q.symbol,
        name: q.name,
        nameEn: h.feed.instruments().find((i) => i.symbol === q.symbol)?.nameEn ?? null,
        members: null,
        turnoverMinor: q.turnoverMinor,
      })),
    );
    expect(r.replayDate).toBe(quotes[0]!.replayDate);
    expect(r.replayDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('counts members per instrument (a repeat counts once), most members first, public', async () => {
    await open(b, '2330');
    await open(b, '2330');
    let r = ok(await h.call('search/hot', {}));
    expect(r).toMatchObject({ basis: 'searches', windowDays: HOT_WINDOW_DAYS });
    expect(r.items).toEqual([
      { symbol: '2330', name: '台積電', nameEn: 'TSMC', members: 2, turnoverMinor: null },
    ]);

    await open(c, '0050');
    await open(c, '2330');
    r = ok(await h.call('search/hot', {}, b));
    expect(r.items.map((i: { symbol: string; members: number }) => [i.symbol, i.members])).toEqual([
      ['2330', 3],
      ['0050', 2],
    ]);
  });

  it('forgets opens older than the window, and a cleared history', async () => {
    ok(await h.call('search/clearHistory', {}, c));
    let r = ok(await h.call('search/hot', {}));
    expect(r.items.map((i: { symbol: string; members: number }) => [i.symbol, i.members])).toEqual([
      ['2330', 2],
    ]);
    h.wall.now += HOT_WINDOW_DAYS * 86_400_000 + 10_000;
    r = ok(await h.call('search/hot', {}));
    expect(r.basis).toBe('turnover');
    // The members' own lists keep them.
    expect(await history(a)).toEqual(['2330', '0050']);
  });
});

describe('bad input', () => {
  it('is a 4xx envelope with a message key and changes no table', async () => {
    const cases: Array<[string, unknown, string | undefined, number]> = [
      ['search/query', { q: '' }, undefined, 400],
      ['search/query', { q: '   ' }, undefined, 400],
      ['search/query', {}, undefined, 400],
      ['search/query', { q: '2'.repeat(SEARCH_QUERY_MAX + 1) }, undefined, 400],
      ['search/query', { q: '23\u000030' }, undefined, 400],
      ['search/query', { q: '台\u0007積' }, undefined, 400],
      ['search/query', { q: '台\n積' }, undefined, 400],
      ['search/query', { q: '\ud800' }, undefined, 400],
      ['search/query', { q: 2330 }, undefined, 400],
      ['search/query', { q: '2330', limit: 0 }, undefined, 400],
      ['search/query', { q: '2330', limit: 51 }, undefined, 400],
      ['search/query', { q: '2330', extra: { deep: [1] }, limit: 1.5 }, undefined, 400],
      ['search/addHistory', { symbol: '' }, a, 400],
      ['search/addHistory', { symbol: '2330\u0000' }, a, 400],
      ['search/addHistory', { symbol: '2'.repeat(300) }, a, 400],
      ['search/addHistory', { symbol: '9999' }, a, 404],
      ['search/addHistory', { symbol: '2330' }, undefined, 401],
      ['search/clearHistory', { all: true }, a, 400],
      ['search/clearHistory', {}, undefined, 401],
      ['search/history', {}, 'x'.repeat(43), 401],
      ['search/hot', { x: 1 }, undefined, 400],
    ];
    const before = await fingerprint(h.database.db, ALL_TABLES);
    const failures: string[] = [];
    for (const [name, body, token, http] of cases) {
      const r = await h.call(name as 'search/query', body, token);
      const good =
        r.http === http &&
        r.body.status === 0 &&
        r.body.data === null &&
        (ERROR_KEYS as readonly string[]).includes(r.body.msg);
      if (!good) failures.push(`${name} ${JSON.stringify(body)}: ${r.http} ${JSON.stringify(r.body)}`);
    }
    expect(failures).toEqual([]);
    expect(await fingerprint(h.database.db, ALL_TABLES)).toEqual(before);
  });

  it("refuses an operator's session on the member endpoints (403)", async () => {
    const op = await h.operatorToken();
    for (const name of ['search/history', 'search/addHistory', 'search/clearHistory'] as const) {
      const r = await h.call(name, name === 'search/addHistory' ? { symbol: '2330' } : {}, op);
      expect(r, name).toEqual({ http: 403, body: { status: 0, msg: 'forbidden', data: null } });
    }
  });
});
