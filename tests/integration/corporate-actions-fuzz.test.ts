/**
 * A seeded fuzz of unit changes on the database (PGlite by default, PostgreSQL with
 * TEST_DB=postgres): random 2330 positions (long/short, 1×/2×/5×/10×, 1–5 lots, several
 * members) opened through the API, then rounds of random rational ratios (1–12 : 1–12) applied
 * by the module's applySession on the next sessions. After every round, for every position:
 * shares, open value and margin are exactly the pure adjustPosition of the row before; the
 * member's available balance moved by exactly the realised P&L of the fractions paid; its value at
 * the reference (whole shares + the fraction's cash) equals its value before within the
 * fraction's ½-minor rounding; a second pass changes nothing; the ledger reconciles.
 * A fresh seed each run (printed; FUZZ_SEED=<n> replays one) and a pinned one.
 */
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustPosition, type ShareRatio } from '../../contract/corporate-actions';
import { mulDivRound } from '../../contract/money';
import { dailyCandles, orders } from '../../server/db/schema';
import { applySession, type ApplyEnv } from '../../server/modules/corporate-actions/apply';
import type { ActionSchedule } from '../../server/modules/corporate-actions/schedule';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { idem, startHarness, type Harness } from './harness';
import { seeded } from './support/random';

const fresh = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const SEEDS = [20_250_618, fresh];
console.log(`corporate-actions fuzz seed ${fresh} (replay with FUZZ_SEED=${fresh})`);
const ROUNDS = 4;

let h: Harness;
let today: number;
beforeAll(async () => {
  h = await startHarness();
  today = h.dividends.calendar.today();
});
afterAll(async () => {
  await h?.close();
});

let accounts = 0;
let session = 0;

describe.each(SEEDS)('seed %i', (seed) => {
  it('every round keeps each position’s value to the minor unit, the ledger clean', async () => {
    const rnd = seeded(seed);
    const db = h.database.db;
    const ids: number[] = [];
    const owners = new Map<number, number>();
    for (let m = 0; m < 3; m++) {
      const account = `0937${String(++accounts).padStart(6, '0')}`;
      const token = await h.fundedMember(account, 10_000_000_000);
      const userId = await h.userId(account);
      for (let i = 0; i < 3; i++) {
        const r = await h.call(
          'trade/placeOrder',
          {
            symbol: '2330',
            side: rnd.pick(['long', 'short'] as const),
            orderType: 'market',
            lots: 1 + rnd.int(5),
            leverage: rnd.pick([1, 2, 5, 10]),
          },
          token,
          idem(),
        );
        expect(r.body.status).toBe(1);
        ids.push(r.body.data.id);
        owners.set(r.body.data.id, userId);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      const s = today + 1 + session++;
      let ratio: ShareRatio;
      do ratio = { oldShares: 1 + rnd.int(12), newShares: 1 + rnd.int(12) };
      while (ratio.oldShares === ratio.newShares);
      const date = h.dividends.calendar.dateOf(s)!;
      const [last] = await db
        .select({ c: dailyCandles.closeMinor })
        .from(dailyCandles)
        .where(and(eq(dailyCandles.symbol, '2330'), lt(dailyCandles.date, date)))
        .orderBy(desc(dailyCandles.date))
        .limit(1);
      const close = last!.c;
      const ref = mulDivRound(close, ratio.oldShares, ratio.newShares);
      const before = await db.select().from(orders).where(inArray(orders.id, ids));
      const cash = new Map<number, number>();
      for (const u of new Set(owners.values())) cash.set(u, (await memberBalances(db, u)).available);
      const schedule: ActionSchedule = {
        symbols: new Set(['2330']),
        on: (k) => ({
          date: h.dividends.calendar.dateOf(k)!,
          actions: k === s ? [{ kind: 'split', symbol: '2330', ratio }] : [],
        }),
      };
      const env: ApplyEnv = {
        db,
        sessionOf: () => today,
        kindOf: () => 'stock',
        now: () => new Date(h.wall.now),
      };
      await applySession(env, schedule, s);
      const realised = new Map<number, number>();
      for (const b of before) {
        const a = (await db.select().from(orders).where(eq(orders.id, b.id)))[0]!;
        if (b.status !== 'holding') {
          expect(a.status).toBe(b.status);
          continue;
        }
        const side = b.side as 'long' | 'short';
        const want = adjustPosition(
          { side, shares: b.shares, openValueMinor: b.openValueMinor!, marginMinor: b.marginMinor },
          ratio,
          ref,
        );
        if (want.shares === 0) expect(a).toMatchObject({ status: 'closed', closeReason: 'corporateAction' });
        else
          expect(a).toMatchObject({
            shares: want.shares,
            openValueMinor: want.openValueMinor,
            marginMinor: b.marginMinor,
          });
        const u = owners.get(b.id)!;
        realised.set(
          u,
          (realised.get(u) ?? 0) + want.realisedPnlMinor + (want.shares === 0 ? b.marginMinor : 0),
        );
        // Value at the reference, × oldShares: whole shares and the fraction's cash against before.
        const v0 = b.shares * ratio.newShares * ref;
        const v1 = (want.shares * ref + want.cashInLieuMinor) * ratio.oldShares;
        expect(2 * Math.abs(v1 - v0)).toBeLessThanOrEqual(ratio.oldShares);
      }
      for (const [u, was] of cash) {
        const now = await memberBalances(db, u);
        if (now.debt === 0) expect(now.available - was).toBe(realised.get(u) ?? 0);
      }
      expect(await applySession(env, schedule, s)).toEqual({ positions: 0, orders: 0, settled: 0 });
      expect(isClean(await reconcile(db))).toBe(true);
    }
  }, 120_000);
});
