/**
 * Stock-lending days on the replay's clock (server/modules/lending/service.ts), through the HTTP
 * API on the harness's manual clock (PGlite by default, PostgreSQL with TEST_DB=postgres):
 *
 * - the fee of a business day is priced at that day's own reference: a 1,000-share 2317 loan at
 *   10 %/yr for one day, 2025-04-25 (reference 136.50), is paid ⌊1,000 × 136.50 × 10 % ÷ 365⌋ =
 *   NT$37.39 — not NT$38.08 at the next day's reference (139.00, 2025-04-28), NT$0.69 too much;
 * - a loan across the window's restart (2025-07-18 → 2025-04-07): lent on 2025-07-16 for 5
 *   business days, its period reads its start and term and a countdown that only goes down, never
 *   an end date before the start; each of its days, 07-16, 07-17, 07-18, 04-07, 04-08, is paid at
 *   that day's reference, and it expires after the fifth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { HARNESS_SESSION, idem, startHarness, type Harness } from './harness';
import { advanceMarket } from './trading-support';

const FUNDS = 500_000_000; // NT$5,000,000
let h: Harness;
let op: string;
let base: number;

/** By hand: shares × reference × rate ÷ (10,000 bps × 365 days), rounded down to the minor unit. */
const dayFee = (shares: number, referenceMinor: number, rateBps: number) =>
  Number((BigInt(shares) * BigInt(referenceMinor) * BigInt(rateBps)) / 3_650_000n);

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token, idem());
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** Moves the wall clock to 10:00 market time of clock session `k` (forward only), runs the lending steps. */
async function goTo(k: number): Promise<void> {
  const target = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS;
  // Jump to 08:31 of the session, then walk to 10:00 (the feed builds the day tick by tick).
  if (target - 89 * 60_000 > h.wall.now) h.wall.now = target - 89 * 60_000;
  await advanceMarket(h, target - h.wall.now);
  await h.lending.run();
}

/** The session k ≥ from whose replayed date is `date`. */
function sessionOf(date: string, from = 0): number {
  const cal = h.dividends.calendar;
  for (let k = from; k < from + 200; k++) if (cal.dateOf(k) === date) return k;
  throw new Error(`no session replays ${date}`);
}

async function lendLong(token: string, symbol: string, rateBps: number, days: number) {
  const pos = await ok(
    'trade/placeOrder',
    { symbol, side: 'long', orderType: 'market', lots: 1, leverage: 1 },
    token,
  );
  expect(pos.status).toBe('holding');
  return ok('lending/lend', { orderId: pos.id, shares: 1000, rateBps, days }, token);
}

const loanOf = async (token: string, id: number) =>
  ((await ok('lending/orders', { pageSize: 50 }, token)).items as Array<Record<string, unknown>>).find(
    (l) => l.id === id,
  )!;

beforeAll(async () => {
  h = await startHarness();
  base = h.wall.now;
  op = await h.operatorToken();
  for (const symbol of ['2317', '2330'])
    await ok('admin/saveLendingQuota', { symbol, quotaShares: 100_000 }, op);
});
afterAll(async () => h?.close());

describe('lending days on the replay clock', () => {
  it("prices a loan's last day at that day's reference (the NT$0.69 case)", async () => {
    const day = sessionOf('2025-04-25');
    expect(h.dividends.calendar.dateOf(day + 1)).toBe('2025-04-28');
    await goTo(day);
    expect(h.feed.quote('2317')!.prevCloseMinor).toBe(13_650);
    const lender = await h.fundedMember('0954000001', FUNDS);
    const loan = await lendLong(lender, '2317', 1_000, 1);
    expect(loan).toMatchObject({ startDate: '2025-04-25', days: 1, daysLeft: 1 });
    await goTo(day + 1);
    expect(h.feed.quote('2317')!.prevCloseMinor).toBe(13_900);
    const done = await loanOf(lender, loan.id);
    expect(done).toMatchObject({ status: 'finished', finishReason: 'expired', accruedDays: 1, daysLeft: 0 });
    expect(dayFee(1000, 13_650, 1_000)).toBe(3_739); // NT$37.39
    expect(dayFee(1000, 13_900, 1_000)).toBe(3_808); // the next day's reference: NT$0.69 more
    expect(done.rebateMinor).toBe(3_739);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('a loan across the window restart never reads backwards and pays each day at its reference', async () => {
    const start = sessionOf('2025-07-16', HARNESS_SESSION);
    const cal = h.dividends.calendar;
    expect([1, 2, 3, 4].map((i) => cal.dateOf(start + i))).toEqual([
      '2025-07-17',
      '2025-07-18',
      '2025-04-07',
      '2025-04-08',
    ]);
    await goTo(start);
    const lender = await h.fundedMember('0954000002', FUNDS);
    const loan = await lendLong(lender, '2330', 1_200, 5);
    expect(loan).toMatchObject({ startDate: '2025-07-16', days: 5, daysLeft: 5 });
    expect(loan).not.toHaveProperty('endDate');
    const references: number[] = [];
    const left: number[] = [];
    for (let d = 0; d < 5; d++) {
      references.push(h.feed.referenceAt('2330', start + d)!);
      expect(references[d]).toBe(h.feed.quote('2330')!.prevCloseMinor); // today's, as the screen shows
      await goTo(start + d + 1);
      const l = await loanOf(lender, loan.id);
      expect(l.startDate).toBe('2025-07-16');
      expect(l.accruedDays).toBe(d + 1);
      left.push(l.daysLeft as number);
    }
    expect(left).toEqual([4, 3, 2, 1, 0]);
    expect(references).toEqual([111_000, 113_000, 113_000, 94_200, 84_800]);
    const done = await loanOf(lender, loan.id);
    expect(done).toMatchObject({ status: 'finished', finishReason: 'expired', accruedDays: 5 });
    expect(done.rebateMinor).toBe(references.reduce((s, p) => s + dayFee(1000, p, 1_200), 0));
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
