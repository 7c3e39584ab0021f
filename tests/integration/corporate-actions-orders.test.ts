/**
 * Corporate actions on resting orders, a reverse split and copies (PGlite by default, PostgreSQL
 * with TEST_DB=postgres). On the replay a ROD order never outlives its trading day and the real
 * splits all follow a halt, so no real action meets a resting order; these cases run the
 * module's own applySession (server/modules/corporate-actions/apply.ts) with actions written
 * here on the next sessions of 2330, against orders and positions placed through the API:
 *
 * - 1 → 2: a resting buy at the limit-down price and a resting sell at the limit-up price become
 *   2 lots at half their limits (the buy floored, the sell ceiled to the tick table), frozen funds
 *   unchanged; the engine re-admits them, so the sell (now far below the unsplit market) fills at
 *   its new limit on the next quote with 2,000 shares;
 * - 10 → 7 (a capital reduction): the resting buy would need 1,400 shares, not whole lots: it is
 *   cancelled (`corporateAction`), its funds released, the member told; the 2,000-share position
 *   becomes 1,400 shares with its open value and margin, exactly;
 * - a copy (copy trading): its recorded lots follow the follower's and the mentor's positions; a
 *   stock dividend's ex-rights value on the copy goes to the follow's cash, not the wallet;
 * - a second pass changes nothing; the ledger reconciles after every step.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ceilToTick, floorToTick } from '../../contract/market-rules';
import {
  corporateActionAdjustments,
  followCopies,
  follows,
  memberNotices,
  mentors,
  orders,
} from '../../server/db/schema';
import { applySession, type ApplyEnv } from '../../server/modules/corporate-actions/apply';
import type { ActionSchedule, SessionAction } from '../../server/modules/corporate-actions/schedule';
import {
  ensureSubAccount,
  isClean,
  memberBalances,
  move,
  post,
  reconcile,
} from '../../server/modules/ledger/ledger';
import { idem, startHarness, type Harness } from './harness';
import { advanceMarket } from './trading-support';

let h: Harness;
let today: number;
const FUNDS = 500_000_000;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token, idem());
  if (r.body.status !== 1) throw new Error(`${name} refused: ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const row = async (id: number) => (await h.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const clean = async () => expect(isClean(await reconcile(h.database.db))).toBe(true);

/** Runs `actions` as the actions of session `s` through the module's applySession. */
async function apply(s: number, actions: SessionAction[]) {
  const schedule: ActionSchedule = {
    symbols: new Set(actions.map((a) => a.symbol)),
    on: (k) => ({ date: h.dividends.calendar.dateOf(k)!, actions: k === s ? actions : [] }),
  };
  const env: ApplyEnv = {
    db: h.database.db,
    // Everything here was entered or opened on today's session, before the actions' sessions.
    sessionOf: () => today,
    kindOf: () => 'stock',
    now: () => new Date(h.wall.now),
    readmit: (r) => h.trading.readmit(r),
  };
  const r = await applySession(env, schedule, s);
  await h.trading.idle();
  return r;
}
const split = (oldShares: number, newShares: number): SessionAction => ({
  kind: 'split',
  symbol: '2330',
  ratio: { oldShares, newShares },
});

let R: { token: string; id: number };
let buy: number;
let sell: number;
let limits: { up: number; down: number };

beforeAll(async () => {
  h = await startHarness();
  today = h.dividends.calendar.today();
  R = { token: await h.fundedMember('0936000001', FUNDS), id: await h.userId('0936000001') };
});
afterAll(async () => {
  await h?.close();
});

describe('resting orders and positions across synthetic unit changes', () => {
  it('1 → 2: re-prices both resting orders on the tick table, frozen funds unchanged, re-admitted', async () => {
    const q = h.feed.quote('2330')!;
    limits = { up: q.limitUpMinor, down: q.limitDownMinor };
    const body = { symbol: '2330', orderType: 'limit', lots: 1, leverage: 5 };
    buy = (await ok('trade/placeOrder', { ...body, side: 'long', priceMinor: limits.down }, R.token)).id;
    sell = (await ok('trade/placeOrder', { ...body, side: 'short', priceMinor: limits.up }, R.token)).id;
    const frozen = { buy: (await row(buy)).frozenMinor, sell: (await row(sell)).frozenMinor };
    expect(h.trading.restingCount()).toBe(2);
    expect(await apply(today + 1, [split(1, 2)])).toEqual({ positions: 0, orders: 2, settled: 0 });
    expect(await row(buy)).toMatchObject({
      status: 'pending',
      shares: 2_000,
      lots: 2,
      limitPriceMinor: floorToTick(Math.floor(limits.down / 2)),
      frozenMinor: frozen.buy,
    });
    const sellLimit = ceilToTick(Math.ceil(limits.up / 2));
    expect(await row(sell)).toMatchObject({
      shares: 2_000,
      lots: 2,
      limitPriceMinor: sellLimit,
      frozenMinor: frozen.sell,
    });
    const kinds = (
      await h.database.db.select().from(memberNotices).where(eq(memberNotices.userId, R.id))
    ).map((n) => n.kind);
    expect(kinds.filter((k) => k === 'orderAdjusted')).toHaveLength(2);
    // The engine holds the sell at its new limit: the next quote (bid far above it) fills it there.
    await advanceMarket(h, 60_000);
    expect(await row(sell)).toMatchObject({
      status: 'holding',
      shares: 2_000,
      openPriceMinor: sellLimit,
      openValueMinor: sellLimit * 2_000,
    });
    expect(h.trading.restingCount()).toBe(1);
    expect(await apply(today + 1, [split(1, 2)])).toEqual({ positions: 0, orders: 0, settled: 0 });
    await clean();
  });

  it('10 → 7: cancels the buy (1,400 shares is not whole lots), the position keeps its value', async () => {
    const before = await row(sell);
    const b = await memberBalances(h.database.db, R.id);
    const frozen = (await row(buy)).frozenMinor;
    expect(await apply(today + 2, [split(10, 7)])).toEqual({ positions: 1, orders: 1, settled: 0 });
    expect(await row(buy)).toMatchObject({
      status: 'cancelled',
      closeReason: 'corporateAction',
      frozenMinor: 0,
    });
    const a = await memberBalances(h.database.db, R.id);
    expect(a.available - b.available).toBe(frozen);
    expect(h.trading.restingCount()).toBe(0);
    expect(await row(sell)).toMatchObject({
      status: 'holding',
      shares: 1_400,
      lots: 1,
      openValueMinor: before.openValueMinor,
      marginMinor: before.marginMinor,
    });
    const [adj] = await h.database.db
      .select()
      .from(corporateActionAdjustments)
      .where(
        and(eq(corporateActionAdjustments.orderId, sell), eq(corporateActionAdjustments.session, today + 2)),
      );
    expect(adj).toMatchObject({ sharesBefore: 2_000, sharesAfter: 1_400, cashMinor: 0, outcome: 'adjusted' });
    const kinds = (
      await h.database.db.select().from(memberNotices).where(eq(memberNotices.userId, R.id))
    ).map((n) => n.kind);
    expect(kinds).toContain('orderCancelledByAction');
    expect(kinds).toContain('positionAdjusted');
    await clean();
  });

  it('a copy: its lots follow the positions; an ex-rights value on it goes to the follow’s cash', async () => {
    const M = { token: await h.fundedMember('0936000002', FUNDS), id: await h.userId('0936000002') };
    const F = { token: await h.fundedMember('0936000003', FUNDS), id: await h.userId('0936000003') };
    const market = { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 5 };
    const mentorOrder = (await ok('trade/placeOrder', market, M.token)).id;
    const copyOrder = (await ok('trade/placeOrder', market, F.token)).id;
    // The follow and its copy, as copy trading records them (follows.ts): 1,000,000 minor of cash.
    const [m] = await h.database.db
      .insert(mentors)
      .values({ userId: M.id, minFollowMinor: 100, profitShareBps: 1_000 })
      .returning();
    const [f] = await h.database.db
      .insert(follows)
      .values({
        userId: F.id,
        mentorId: m!.id,
        status: 'following',
        amountMinor: 1_000_000,
        cashMinor: 1_000_000,
        highWaterMinor: 1_000_000,
        stopLossBps: 4_000,
        sinceOrderId: 0,
        deadlineAt: new Date(h.wall.now + 86_400_000),
      })
      .returning();
    await h.database.db.transaction(async (tx) => {
      await ensureSubAccount(tx, F.id, 'follow');
      await post(tx, {
        type: 'followAllocate',
        postings: move(
          { userId: F.id, purpose: 'available' },
          { userId: F.id, purpose: 'follow' },
          1_000_000,
        ),
      });
    });
    await h.database.db.insert(followCopies).values({
      followId: f!.id,
      mentorOrderId: mentorOrder,
      orderId: copyOrder,
      symbol: '2330',
      side: 'long',
      mentorLots: 1,
      lots: 1,
      mentorEquityMinor: FUNDS,
      allocationMinor: 1_000_000,
      status: 'open',
    });
    expect(await apply(today + 3, [split(1, 3)])).toMatchObject({ positions: 3 });
    const [copy] = await h.database.db.select().from(followCopies).where(eq(followCopies.orderId, copyOrder));
    expect(copy).toMatchObject({ lots: 3, mentorLots: 3 });
    const wallet = (await memberBalances(h.database.db, F.id)).available;
    const shares = (await row(copyOrder)).shares;
    expect(shares).toBe(3_000);
    const ex: SessionAction = {
      kind: 'exRights',
      symbol: '2330',
      closeBeforeMinor: 30_000,
      referenceMinor: 29_950,
    };
    expect(await apply(today + 4, [ex])).toMatchObject({ settled: 3 });
    const [after] = await h.database.db.select().from(follows).where(eq(follows.id, f!.id));
    expect(after!.cashMinor).toBe(1_000_000 + 50 * shares);
    // The follow's ledger account is its cash (what copy trading keeps in step).
    expect((await memberBalances(h.database.db, F.id)) as Record<string, number>).toMatchObject({
      follow: after!.cashMinor,
    });
    expect((await memberBalances(h.database.db, F.id)).available).toBe(wallet);
    expect(await apply(today + 4, [ex])).toMatchObject({ settled: 0 });
    await clean();
  });
});
