/**
 * Copy trading's pools (docs/copy-trading.md "Pools and profit share") on the seeded replay, through
 * the HTTP API, the copy trader's pass and the dividend runner, on PGlite and PostgreSQL:
 *
 * - A follower closes a profitable copy by hand (mentor's share 50 %) and at once exchanges all
 *   TWD to USD: the proceeds went into the follow and the mentor's share was paid in the close's
 *   own transaction; the wallet never held them (a larger exchange is refused); follow/stop reports
 *   the share. A borrow fee charged after the copy closed is taken from the follow and realised.
 * - Four mentor orders whose allocation rounds to zero lots: four skipped records and four
 *   `copySkipped` notices naming the reason and the smallest amount that would have copied one lot;
 *   mentor/minFollow recomputes the mentor's equity of each order from the ledger and agrees with
 *   the copier's.
 * - F1: a copied short of 2317 across its 2025-07-02 ex-date (cash NT$5.799983 per share,
 *   server/db/seed-data/full-market/ex_rights_2025-04-01_2025-07-22.csv). By hand: 1,000 shares ×
 *   5.799983 = NT$5,799.983 → NT$5,799.98 = 579,998 minor, charged to the follow's cash, the
 *   member's own wallet untouched; the mentor's 20 % share is computed on the copy's P&L after it,
 *   so the share counted without it (the leak: NT$5,799.98 × 20 % = NT$1,160) is not paid.
 *
 * - A loss beyond a copy's margin (a forced close at half its price) is paid from the follow's cash,
 *   repaying the debt the close left; the member (whole wallet in the follow) owes nothing.
 *
 * After each case the ledger reconciles and each follow account equals its follows' cash.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dividendAmountMinor } from '../../contract/dividends';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import {
  dailyCandles,
  followCopies,
  follows,
  ledgerTransactions,
  mentors,
  orders,
} from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { postCopyCashFlow } from '../../server/modules/copy-trading/settlement';
import { HARNESS_SESSION, idem, startHarness, TEST_SYMBOLS, type Harness } from './harness';
import { advanceMarket, marketNow, replayTo } from './trading-support';

const NT = 100;
const F1_DIVIDEND = 579_998; // 1,000 × NT$5.799983 = NT$5,799.983 → NT$5,799.98, by hand

let h: Harness;
let base: number;
let seq = 0;

beforeAll(async () => {
  // The intraday paths are seeded: pin the seed so the prices this file trades at are reproducible.
  h = await startHarness({ marketSeed: 1 });
  base = h.wall.now;
}, 120_000);
afterAll(async () => {
  await h?.close();
});

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, headers = {}) {
  const r = await h.call(name, body, token, headers);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

async function member(amountNt: number) {
  const account = `09550${String(++seq).padStart(5, '0')}`;
  const token = await h.fundedMember(account, amountNt * NT);
  return { token, id: await h.userId(account) };
}

/** A member approved as a mentor directly (the admission flow is copy-trading.test.ts's). */
async function mentor(amountNt: number, profitShareBps: number) {
  const m = await member(amountNt);
  const [row] = await h.database.db
    .insert(mentors)
    .values({ userId: m.id, status: 'approved', minFollowMinor: 10_000 * NT, profitShareBps })
    .returning();
  return { ...m, mentorId: row!.id };
}

const rowsOf = <T>(r: unknown): T[] => (r as { rows?: T[] }).rows ?? (r as T[]);

/** The ledger reconciles, and each member's follow account equals their follows' cash. */
async function ledgerHolds(): Promise<void> {
  expect(isClean(await reconcile(h.database.db))).toBe(true);
  const rows = rowsOf<{ balance: string; cash: string }>(
    await h.database.db.execute(sql`
      select a.balance_minor as balance,
        (select coalesce(sum(f.cash_minor), 0) from follows f where f.user_id = a.user_id) as cash
      from ledger_accounts a where a.purpose = 'follow'`),
  );
  for (const r of rows) expect(Number(r.balance)).toBe(Number(r.cash));
}

const followRow = async (id: number) =>
  (await h.database.db.select().from(follows).where(eq(follows.id, id)))[0]!;
const copyOf = async (followId: number, mentorOrderId: number) =>
  (
    await h.database.db
      .select()
      .from(followCopies)
      .where(and(eq(followCopies.followId, followId), eq(followCopies.mentorOrderId, mentorOrderId)))
  )[0];
const orderRow = async (id: number) =>
  (await h.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const net = (o: Awaited<ReturnType<typeof orderRow>>) =>
  o.pnlMinor! - o.openFeeMinor - o.openTaxMinor - o.closeFeeMinor - o.closeTaxMinor;
/** The profit share of `minor` at `bps`, truncated (rules.ts bpsOf), recomputed here. */
const shareOf = (minor: number, bps: number) => (minor > 0 ? Math.floor((minor * bps) / 10_000) : 0);

describe('a copy closed by hand, then all TWD exchanged', () => {
  it("pays the mentor's 50 % share at the close; the exchange cannot take it along", async () => {
    const M = await mentor(1_000_000, 5_000);
    const P = await member(600_000);
    const f = await ok(
      'follow/start',
      { mentorId: M.mentorId, amountMinor: 500_000 * NT, days: 30 },
      P.token,
      idem(),
    );
    // The side and symbol the replayed day moves most in from now to its close.
    const date = h.trading.tradeDate('2330');
    let best = { symbol: '', side: 'long' as 'long' | 'short', move: 0 };
    for (const s of TEST_SYMBOLS) {
      const [cd] = await h.database.db
        .select()
        .from(dailyCandles)
        .where(and(eq(dailyCandles.symbol, s), eq(dailyCandles.date, date)));
      const q = h.feed.quote(s)!;
      const up = (cd!.closeMinor - q.askMinor) / q.askMinor;
      const down = (q.bidMinor - cd!.closeMinor) / q.bidMinor;
      if (up > best.move) best = { symbol: s, side: 'long', move: up };
      if (down > best.move) best = { symbol: s, side: 'short', move: down };
    }
    expect(best.move).toBeGreaterThan(0.01);
    const mo = await ok(
      'trade/placeOrder',
      { symbol: best.symbol, side: best.side, orderType: 'market', lots: 4, leverage: 10 },
      M.token,
    );
    await h.copyTrading.runOnce();
    const copy = (await copyOf(f.id, mo.id))!;
    expect(copy).toMatchObject({ status: 'open' });
    expect(copy.lots).toBeGreaterThan(0);
    await replayTo(h, 13, 20);

    const ownBefore = await memberBalances(h.database.db, P.id);
    expect(ownBefore.available).toBe(100_000 * NT); // the follow's cash is not in the wallet
    const mentorBefore = await memberBalances(h.database.db, M.id);
    const fBefore = await followRow(f.id);
    // The follower closes the copy by hand.
    await ok('trade/closePosition', { orderId: copy.orderId }, P.token, idem());
    const o = await orderRow(copy.orderId!);
    expect(o.closeReason).toBe('user');
    const realised = net(o);
    expect(realised, 'the copy closed at a profit').toBeGreaterThan(0);
    const share = shareOf(realised, 5_000);
    // Settled in the close's transaction: no pass has run since.
    const closed = (await copyOf(f.id, mo.id))!;
    expect(closed).toMatchObject({
      status: 'closed',
      reason: 'follower',
      pnlMinor: realised,
      profitShareMinor: share,
    });
    expect((await memberBalances(h.database.db, M.id)).available).toBe(mentorBefore.available + share);
    const proceeds = o.marginMinor + o.pnlMinor! - o.closeFeeMinor - o.closeTaxMinor;
    const fAfter = await followRow(f.id);
    expect(fAfter).toMatchObject({
      cashMinor: fBefore.cashMinor + proceeds - share,
      realisedMinor: realised,
      profitShareMinor: share,
      highWaterMinor: 500_000 * NT + realised,
    });
    // The wallet never held the proceeds: all of it is still the member's own NT$100,000.
    expect((await memberBalances(h.database.db, P.id)).available).toBe(ownBefore.available);

    // Exchanging everything the wallet would hold had the proceeds landed there is refused; all
    // the member's own TWD goes to USD.
    const more = await h.call(
      'user/exchange',
      { from: 'TWD', to: 'USD', amountMinor: ownBefore.available + proceeds },
      P.token,
      idem(),
    );
    expect(more.body).toMatchObject({ status: 0, msg: 'insufficientBalance' });
    await ok('user/exchange', { from: 'TWD', to: 'USD', amountMinor: ownBefore.available }, P.token, idem());
    expect((await memberBalances(h.database.db, P.id)).available).toBe(0);
    expect((await memberBalances(h.database.db, M.id)).available).toBe(mentorBefore.available + share);

    // A borrow fee for a day the short was held, charged after it closed: from the follow's cash,
    // realised at once (below the high-water mark now: no share on it).
    const fee = 1_234;
    await h.database.db.transaction(async (tx) => {
      const txId = await postCopyCashFlow(
        tx,
        o.id,
        -fee,
        { platform: 'fee_revenue' },
        {
          type: 'stockLending',
          refType: 'lendingAllocation',
          refId: 0,
          actorUserId: P.id,
        },
      );
      expect(txId).not.toBeNull();
    });
    expect(await followRow(f.id)).toMatchObject({
      cashMinor: fAfter.cashMinor - fee,
      realisedMinor: realised - fee,
      profitShareMinor: share,
    });
    expect(await copyOf(f.id, mo.id)).toMatchObject({ cashFlowMinor: -fee, pnlMinor: realised - fee });
    expect((await memberBalances(h.database.db, P.id)).available).toBe(0);

    // The copy carries its tag for its member only.
    expect(await ok('follow/copyOrders', { orderIds: [o.id, mo.id] }, P.token)).toEqual({
      copies: [{ orderId: o.id, followId: f.id, mentorNickname: `M${String(f.mentorId).padStart(4, '0')}` }],
    });
    expect(await ok('follow/copyOrders', { orderIds: [o.id] }, M.token)).toEqual({ copies: [] });
    // The mentor's close later changes nothing for the closed copy.
    await ok('trade/closePosition', { orderId: mo.id }, M.token, idem());
    await h.copyTrading.runOnce();
    expect((await copyOf(f.id, mo.id))!.reason).toBe('follower');
    const records = await ok('follow/records', { followId: f.id }, P.token);
    expect(records.items[0]).toMatchObject({
      reason: 'follower',
      pnlMinor: realised - fee,
      profitShareMinor: share,
    });
    // follow/stop reports the share paid and returns the rest.
    const stopped = await ok('follow/stop', { followId: f.id }, P.token, idem());
    expect(stopped).toMatchObject({
      status: 'ended',
      profitShareMinor: share,
      returnedMinor: fAfter.cashMinor - fee,
      realisedMinor: realised - fee,
    });
    expect((await memberBalances(h.database.db, P.id)).available).toBe(fAfter.cashMinor - fee);
    expect(500_000 * NT + realised - fee - share).toBe(stopped.returnedMinor);
    await ledgerHolds();
  });
});

describe('mentor orders a follow does not copy', () => {
  it('each gives the follower a notice with the reason; minFollow agrees with the copier', async () => {
    const M = await mentor(2_000_000, 1_000);
    const Z = await member(30_000);
    const f = await ok(
      'follow/start',
      { mentorId: M.mentorId, amountMinor: 20_000 * NT, days: 30 },
      Z.token,
      idem(),
    );
    const placed: number[] = [];
    for (let i = 0; i < 4; i++) {
      const o = await ok(
        'trade/placeOrder',
        { symbol: TEST_SYMBOLS[i % 2]!, side: 'long', orderType: 'market', lots: 1 + (i % 2), leverage: 10 },
        M.token,
      );
      placed.push(o.id);
      await h.copyTrading.runOnce();
    }
    // floor(lots × NT$20,000 ÷ ~NT$2,000,000) = 0 for 1 or 2 lots: four skips.
    const records = (await ok('follow/records', { followId: f.id }, Z.token)).items;
    expect(records).toHaveLength(4);
    for (const r of records) expect(r).toMatchObject({ status: 'skipped', reason: 'zeroLots', lots: 0 });
    const notices = (await ok('notice/list', { tab: 'account', pageSize: 50 }, Z.token)).items.filter(
      (n: { kind: string }) => n.kind === 'copySkipped',
    );
    expect(notices).toHaveLength(4);
    for (const r of records) {
      const n = notices.find(
        (x: { params: { mentorOrderId: number } }) => x.params.mentorOrderId === r.mentorOrderId,
      );
      // The smallest amount that would have copied one lot: ⌈equity ÷ lots⌉, by hand.
      const need = Math.ceil(r.mentorEquityMinor / r.mentorLots);
      expect(n.params).toMatchObject({
        followId: f.id,
        copyReason: 'zeroLots',
        symbol: r.symbol,
        mentorLots: r.mentorLots,
        lots: 0,
        amountMinor: need,
        currency: 'TWD',
      });
      expect(Math.floor((r.mentorLots * need) / r.mentorEquityMinor)).toBe(1);
      expect(Math.floor((r.mentorLots * (need - 1)) / r.mentorEquityMinor)).toBe(0);
    }
    // The records of all the member's follows (no followId) hold the same four.
    expect((await ok('follow/records', {}, Z.token)).items.map((r: { id: number }) => r.id)).toEqual(
      records.map((r: { id: number }) => r.id),
    );
    // mentor/minFollow: the equity of each order reconstructed from the mentor's ledger equals
    // the equity the copier used; the smallest amount covering all four is the largest ⌈E ÷ lots⌉.
    const min = await ok('mentor/minFollow', { mentorId: M.mentorId }, Z.token);
    expect(min.orders.map((x: { orderId: number }) => x.orderId)).toEqual([...placed].reverse());
    for (const x of min.orders) {
      const r = records.find((y: { mentorOrderId: number }) => y.mentorOrderId === x.orderId);
      expect(x.mentorEquityMinor).toBe(r.mentorEquityMinor);
      expect(x.minAmountMinor).toBe(Math.ceil(r.mentorEquityMinor / r.mentorLots));
    }
    expect(min.coversAllMinor).toBe(
      Math.max(10_000 * NT, ...min.orders.map((x: { minAmountMinor: number }) => x.minAmountMinor)),
    );
    // Another member's follow records are not readable.
    const other = await member(1_000);
    expect((await h.call('follow/records', { followId: f.id }, other.token)).body.msg).toBe('notFound');
    expect((await ok('follow/records', {}, other.token)).total).toBe(0);
    for (const id of placed) await ok('trade/closePosition', { orderId: id }, M.token, idem());
    await h.copyTrading.runOnce();
    await ledgerHolds();
  });
});

describe("a loss beyond the copy's margin", () => {
  it("is paid from the follow's cash, never left owed by the member's own wallet", async () => {
    const M = await mentor(1_000_000, 1_000);
    // G puts the whole wallet into the follow: nothing of G's own is left to pay a loss.
    const G = await member(120_000);
    const f = await ok(
      'follow/start',
      { mentorId: M.mentorId, amountMinor: 120_000 * NT, days: 30 },
      G.token,
      idem(),
    );
    const mo = await ok(
      'trade/placeOrder',
      { symbol: '2317', side: 'long', orderType: 'market', lots: 10, leverage: 10 },
      M.token,
    );
    await h.copyTrading.runOnce();
    const copy = (await copyOf(f.id, mo.id))!;
    expect(copy).toMatchObject({ status: 'open', lots: 1 });
    const before = await followRow(f.id);
    expect(await memberBalances(h.database.db, G.id)).toMatchObject({ available: 0, debt: 0 });
    // A forced close at half the opening price (a gap the replayed day does not have): the loss,
    // five times the 10× margin, goes through the wallet into debt, and the follow repays it.
    const open = (await orderRow(copy.orderId!)).openPriceMinor!;
    await h.trading.forceClose(copy.orderId!, 'liquidation', undefined, { priceMinor: Math.round(open / 2) });
    const o = await orderRow(copy.orderId!);
    const proceeds = o.marginMinor + o.pnlMinor! - o.closeFeeMinor - o.closeTaxMinor;
    expect(proceeds).toBeLessThan(0);
    expect(-proceeds).toBeLessThan(before.cashMinor);
    expect(await memberBalances(h.database.db, G.id)).toMatchObject({ available: 0, debt: 0 });
    const after = await followRow(f.id);
    expect(after.cashMinor).toBe(before.cashMinor + proceeds);
    expect((await copyOf(f.id, mo.id))!).toMatchObject({
      status: 'closed',
      reason: 'liquidation',
      pnlMinor: net(o),
      profitShareMinor: 0,
    });
    expect(after).toMatchObject({ realisedMinor: net(o), profitShareMinor: 0, highWaterMinor: 120_000 * NT });
    await ok('trade/closePosition', { orderId: mo.id }, M.token, idem());
    await h.copyTrading.runOnce();
    await ledgerHolds();
  });
});

/** Moves the clock to hh:mm market time of replayed session `k` (forward only). */
async function goTo(k: number, hh: number, mm: number): Promise<void> {
  const target = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS + ((hh - 10) * 60 + mm) * 60_000;
  // Jump to 08:31 of the session, then walk (the feed builds the day in slices, tick by tick).
  const start = target - ((hh - 8) * 60 + mm - 31) * 60_000;
  if (start > h.wall.now) h.wall.now = start;
  await advanceMarket(h, target - h.wall.now);
}

/** Walks the market in `stepMs` steps until `pred` holds; throws at `untilMs` market time. */
async function walkUntil(pred: () => boolean, untilMs: number, stepMs = 10_000): Promise<void> {
  while (!pred()) {
    if (marketNow(h) >= untilMs) throw new Error('the condition never held');
    await advanceMarket(h, stepMs, stepMs);
  }
}

describe('F1: a copied short across its ex-date', () => {
  it("takes the dividend from the follow's pool and shares only the profit after it", async () => {
    const M = await mentor(2_000_000, 2_000);
    const F1 = await member(400_000);
    const f = await ok(
      'follow/start',
      { mentorId: M.mentorId, amountMinor: 300_000 * NT, days: 365 },
      F1.token,
      idem(),
    );
    const cal = h.dividends.calendar;
    const dayOf = (date: string) =>
      Array.from({ length: 80 }, (_, k) => k).find((k) => cal.dateOf(k) === date)!;
    // 2025-06-30 (high 166.50): short when the bid reaches 166.00.
    await goTo(dayOf('2025-06-30'), 9, 1);
    expect(h.feed.quote('2317')!.replayDate).toBe('2025-06-30');
    const closeCall = (k: number) => base + (k - HARNESS_SESSION) * REPLAY_DAY_MS + (3 * 60 + 25) * 60_000;
    await walkUntil(() => h.feed.quote('2317')!.bidMinor >= 16_600, closeCall(dayOf('2025-06-30')));
    const mo = await ok(
      'trade/placeOrder',
      { symbol: '2317', side: 'short', orderType: 'market', lots: 10, leverage: 5 },
      M.token,
    );
    await h.copyTrading.runOnce();
    const copy = (await copyOf(f.id, mo.id))!;
    // floor(10 × 300,000 ÷ ~2,000,000) = 1 lot.
    expect(copy).toMatchObject({ status: 'open', lots: 1, side: 'short' });
    const own = (await memberBalances(h.database.db, F1.id)).available;
    expect(own).toBe(100_000 * NT);
    const cashBefore = (await followRow(f.id)).cashMinor;
    const mentorBefore = (await memberBalances(h.database.db, M.id)).available;

    // 2025-07-02, the ex-date: the dividend is charged.
    await goTo(dayOf('2025-07-02'), 9, 5);
    expect(h.feed.quote('2317')!.replayDate).toBe('2025-07-02');
    expect(dividendAmountMinor(1_000, 5_799_983)).toBe(F1_DIVIDEND);
    await h.dividends.run();
    expect((await followRow(f.id)).cashMinor).toBe(cashBefore - F1_DIVIDEND);
    expect((await copyOf(f.id, mo.id))!.cashFlowMinor).toBe(-F1_DIVIDEND);
    // The member's own wallet is untouched; the mentor's own short pays its own 10 lots.
    expect(await memberBalances(h.database.db, F1.id)).toMatchObject({ available: own, debt: 0 });
    // 10,000 shares × 5.799983 = NT$57,999.83, by hand.
    expect((await memberBalances(h.database.db, M.id)).available).toBe(mentorBefore - 5_799_983);
    const [tx] = await h.database.db
      .select()
      .from(ledgerTransactions)
      .where(
        and(eq(ledgerTransactions.type, 'dividend'), eq(ledgerTransactions.refId, String(copy.orderId))),
      );
    const legs = rowsOf<{ purpose: string; user_id: number | null; amount: string }>(
      await h.database.db.execute(sql`
        select a.purpose, a.user_id, p.amount_minor as amount from ledger_postings p
        join ledger_accounts a on a.id = p.account_id where p.transaction_id = ${tx!.id} order by a.purpose`),
    );
    expect(legs.map((l) => [l.purpose, l.user_id, Number(l.amount)])).toEqual([
      ['follow', F1.id, -F1_DIVIDEND],
      ['trading_pnl', null, F1_DIVIDEND],
    ]);

    // 2025-07-08 (low 158.50): the mentor covers when the ask is down to 159.00.
    await goTo(dayOf('2025-07-08'), 9, 1);
    await walkUntil(() => h.feed.quote('2317')!.askMinor <= 15_900, closeCall(dayOf('2025-07-08')));
    const mentorBeforeClose = (await memberBalances(h.database.db, M.id)).available;
    await ok('trade/closePosition', { orderId: mo.id }, M.token, idem());
    const mentorAfterOwnClose = (await memberBalances(h.database.db, M.id)).available;
    await h.copyTrading.runOnce();
    const o = await orderRow(copy.orderId!);
    expect(o.closeReason).toBe('copyMentorClosed');
    const closed = (await copyOf(f.id, mo.id))!;
    expect(closed.reason).toBe('mentorClosed');
    // The copy's P&L for the follow: the order's net less the dividend it paid.
    const pnl = net(o) - F1_DIVIDEND;
    expect(closed.pnlMinor).toBe(pnl);
    expect(pnl, 'the short made money after its dividend').toBeGreaterThan(0);
    const share = shareOf(pnl, 2_000);
    expect(closed.profitShareMinor).toBe(share);
    expect((await memberBalances(h.database.db, M.id)).available - mentorAfterOwnClose).toBe(share);
    expect(mentorAfterOwnClose).not.toBe(mentorBeforeClose);
    // Counted without the dividend (as the member's wallet paid it), the share would be NT$1,160 more.
    const leaked = shareOf(net(o), 2_000);
    expect(Math.round((leaked - share) / NT)).toBe(1_160);
    expect(Math.abs(leaked - share - shareOf(F1_DIVIDEND, 2_000))).toBeLessThanOrEqual(1);

    const stopped = await ok('follow/stop', { followId: f.id }, F1.token, idem());
    expect(stopped).toMatchObject({
      status: 'ended',
      profitShareMinor: share,
      realisedMinor: pnl,
      returnedMinor: 300_000 * NT + pnl - share,
    });
    expect((await memberBalances(h.database.db, F1.id)).available).toBe(own + stopped.returnedMinor);
    await ledgerHolds();
  }, 240_000);
});
