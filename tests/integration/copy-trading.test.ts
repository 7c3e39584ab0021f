/**
 * Copy trading end to end on the seeded replay feed (harness manual clock), through the HTTP API
 * and the copy trader's mirroring pass (`h.copyTrading.runOnce()`):
 * - mentors: an applicant below the criteria is refused; one who meets them waits for review;
 *   the operator never reviews their own application (selfReview, audited); approval lists the
 *   mentor; the figures equal a recomputation from the raw orders written here;
 * - following: the amount moves into the follow sub-account in the same transaction (below the
 *   mentor's minimum, following oneself and overdrawing are refused and move nothing; a retried
 *   request with the same key follows once);
 * - mirroring: a mentor order is copied to three followers with different allocations, lots =
 *   floor(mentor lots × allocation ÷ mentor equity), checked by hand; a follower too small gets
 *   a skipped record with reason zeroLots; a second pass copies nothing again; the mentor's close
 *   closes the copies (order close reason copyMentorClosed) and their proceeds go back to each
 *   follow's cash, less the mentor's share of a profit;
 * - copy stop-loss: a follow whose equity falls to its floor has all its copies closed;
 * - stop: the equity returns to the wallet (followReturn); the mentor's share is settled at each
 *   copy's close, only above the high-water mark (followRebate);
 * - after each step the ledger reconciles and each member's follow account equals the sum of
 *   their follows' cash.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  dailyCandles,
  followCopies,
  follows,
  ledgerTransactions,
  orders,
  riskEvents,
  users,
} from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { SelfReviewError } from '../../server/modules/four-eyes/four-eyes';
import { reviewMentor } from '../../server/modules/copy-trading/mentors';
import { followEquity, mirrorOpen, mirrorPass } from '../../server/modules/copy-trading/mirroring';
import type { CopyDeps } from '../../server/modules/copy-trading/pool';
import { MENTOR_CRITERIA, MENTOR_DEFAULTS, levelOf } from '../../server/modules/copy-trading/rules';
import { taipeiDayStart } from '../../server/modules/copy-trading/stats';
import { createRiskMonitor } from '../../server/modules/risk/monitor';
import { liquidationPriceMinor } from '../../contract/risk';
import { OPERATOR, idem, startHarness, TEST_SYMBOLS, type Harness } from './harness';
import { advanceMarket, replayTo } from './trading-support';

const DAY_MS = 86_400_000;
const NT = 100; // minor units per NT$

let h: Harness;
let op: string;
let opId: number;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, headers = {}) {
  const r = await h.call(name, body, token, headers);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
async function refused(name: Parameters<Harness['call']>[0], body: unknown, token: string, headers = {}) {
  const r = await h.call(name, body, token, headers);
  expect(r.body.status).toBe(0);
  return r.body.msg as string;
}

/** The ledger reconciles, and each member's follow account equals their follows' cash. */
async function ledgerHolds(): Promise<void> {
  expect(isClean(await reconcile(h.database.db))).toBe(true);
  const rows = await h.database.db.execute<{ user_id: number; balance: string; cash: string }>(sql`
    select a.user_id, a.balance_minor as balance,
      (select coalesce(sum(f.cash_minor), 0) from follows f where f.user_id = a.user_id) as cash
    from ledger_accounts a where a.purpose = 'follow'`);
  const list = (rows as unknown as { rows?: unknown[] }).rows ?? (rows as unknown as unknown[]);
  for (const r of list as Array<{ balance: string; cash: string }>)
    expect(Number(r.balance)).toBe(Number(r.cash));
}

async function member(account: string, amountMinor: number, ageDays = 0) {
  const token = await h.fundedMember(account, amountMinor);
  const id = await h.userId(account);
  if (ageDays > 0)
    await h.database.db
      .update(users)
      .set({ createdAt: new Date(h.wall.now - ageDays * DAY_MS) })
      .where(eq(users.id, id));
  return { token, id };
}

/** The mentor buys `lots` of `symbol` at market (10×), a pass runs; the order and `followId`'s record of it. */
async function mentorOpens(symbol: string, lots: number, followId: number) {
  const o = await ok(
    'trade/placeOrder',
    { symbol, side: 'long', orderType: 'market', lots, leverage: 10 },
    mentor.token,
  );
  await h.copyTrading.runOnce();
  const [c] = await h.database.db
    .select()
    .from(followCopies)
    .where(and(eq(followCopies.followId, followId), eq(followCopies.mentorOrderId, o.id)));
  return { o, c };
}

const deps = (): CopyDeps => ({ db: h.database.db, trading: h.trading, feed: h.feed, now: () => h.wall.now });

let mentor: { token: string; id: number };
let mentorId: number;
let A: { token: string; id: number };
let B: { token: string; id: number };
let C: { token: string; id: number };
let D: { token: string; id: number };
const follow: Record<string, number> = {};

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
  opId = await h.userId(OPERATOR.account);
  mentor = await member('0911000001', 1_000_000 * NT, 40);
  A = await member('0911000002', 700_000 * NT);
  B = await member('0911000003', 400_000 * NT);
  C = await member('0911000004', 300_000 * NT);
  D = await member('0911000005', 100_000 * NT);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('mentors', () => {
  it('refuses an applicant below the criteria, then queues one who meets them', async () => {
    expect(await refused('mentor/apply', {}, mentor.token)).toBe('mentorCriteriaNotMet');
    const st0 = await ok('mentor/status', {}, mentor.token);
    expect(st0.mentor).toBeNull();
    expect(st0.criteria.closedTrades).toBe(0);
    expect(st0.criteria.accountDays).toBe(40);
    // A member registered "after" the market clock (the harness replays a past day while the
    // registration carries the wall clock): 0 days, never negative.
    const fresh = await ok('mentor/status', {}, D.token);
    expect(fresh.criteria.accountDays).toBe(0);
    expect(fresh.criteria.eligible).toBe(false);
    for (let i = 0; i < MENTOR_CRITERIA.minClosedTrades; i++) {
      const o = await ok(
        'trade/placeOrder',
        { symbol: '2317', side: 'long', orderType: 'market', lots: 1, leverage: 10 },
        mentor.token,
      );
      await ok('trade/closePosition', { orderId: o.id }, mentor.token);
    }
    const st = await ok('mentor/status', {}, mentor.token);
    expect(st.criteria).toMatchObject({ closedTrades: MENTOR_CRITERIA.minClosedTrades, eligible: true });
    const applied = await ok('mentor/apply', {}, mentor.token);
    expect(applied.status).toBe('review');
    mentorId = applied.id;
    expect(await refused('mentor/apply', {}, mentor.token)).toBe('mentorAlreadyApplied');
    // Not listed while under review; followers cannot follow it yet.
    expect((await ok('mentor/list', {}, A.token)).total).toBe(0);
    expect(
      await refused('follow/start', { mentorId, amountMinor: 100_000 * NT, days: 30 }, A.token, idem()),
    ).toBe('mentorNotApproved');
  });

  it('four eyes: the applicant, as an operator, cannot review their own application (audited)', async () => {
    await expect(
      reviewMentor(h.database.db, {
        id: mentorId,
        operatorId: mentor.id,
        decision: 'approved',
        reason: null,
        nowMs: h.wall.now,
      }),
    ).rejects.toBeInstanceOf(SelfReviewError);
    const audits = await h.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'review.selfRefused'), eq(auditLog.targetType, 'mentorApplication')));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorUserId).toBe(mentor.id);
    // A member cannot use the operator endpoint.
    expect(await refused('admin/approveMentor', { id: mentorId }, A.token)).toBe('forbidden');
  });

  it('an operator approves; the mentor is listed with its level and figures', async () => {
    const queue = await ok('admin/mentors', {}, op);
    expect(queue.items).toEqual([
      expect.objectContaining({ id: mentorId, account: '0911000001', status: 'review', level: 'junior' }),
    ]);
    expect(queue.items[0].stats.closedTrades).toBe(MENTOR_CRITERIA.minClosedTrades);
    const m = await ok('admin/approveMentor', { id: mentorId }, op);
    expect(m).toMatchObject({
      status: 'approved',
      minFollowMinor: MENTOR_DEFAULTS.minFollowMinor,
      profitShareBps: MENTOR_DEFAULTS.profitShareBps,
    });
    expect(await refused('admin/rejectMentor', { id: mentorId, reason: 'late' }, op)).toBe(
      'mentorNotPending',
    );
    const list = await ok('mentor/list', {}, A.token);
    expect(list.items.map((x: { id: number }) => x.id)).toEqual([mentorId]);
    expect(list.items[0].level).toBe(levelOf(list.items[0].stats));
    expect(list.items[0].level).toBe('junior'); // a track record of minutes
    const [audit] = await h.database.db.select().from(auditLog).where(eq(auditLog.action, 'mentor.approve'));
    expect(audit!.actorUserId).toBe(opId);
  });

  it('the figures equal a recomputation from the raw orders', async () => {
    const info = await ok('mentor/info', { mentorId }, A.token);
    const rows = await h.database.db.select().from(orders).where(eq(orders.userId, mentor.id));
    const closed = rows
      .filter((r) => r.status === 'closed')
      .sort((a, b) => a.closedAt!.getTime() - b.closedAt!.getTime() || a.id - b.id);
    expect(closed).toHaveLength(MENTOR_CRITERIA.minClosedTrades);
    const nets = closed.map(
      (r) => r.pnlMinor! - r.openFeeMinor - r.openTaxMinor - r.closeFeeMinor - r.closeTaxMinor,
    );
    const total = nets.reduce((s, n) => s + n, 0);
    const b = await memberBalances(h.database.db, mentor.id);
    const equity = b.available + b.frozen + b.margin + b.debt;
    // Realised-equity curve from equity − total, peak-to-trough in bps of the peak.
    let level = equity - total;
    let peak = level;
    let dd = 0;
    for (const n of nets) {
      level += n;
      peak = Math.max(peak, level);
      dd = Math.max(dd, Math.floor(((peak - level) * 10_000) / peak));
    }
    const today = taipeiDayStart(h.wall.now);
    const yesterday = closed.reduce((s, r, i) => {
      const at = r.closedAt!.getTime();
      return at >= today - DAY_MS && at < today ? s + nets[i]! : s;
    }, 0);
    expect(info.stats).toEqual({
      fundScaleMinor: 0,
      totalProfitMinor: total,
      yesterdayProfitMinor: yesterday,
      dailyReturnBps: Math.trunc((yesterday * 10_000) / equity),
      winRateBps: Math.floor((nets.filter((n) => n > 0).length * 10_000) / nets.length),
      historicalProfitMinor: closed.reduce((s, r) => s + r.pnlMinor!, 0),
      closedTrades: closed.length,
      avgHoldingMs: Math.floor(
        closed.reduce((s, r) => s + r.closedAt!.getTime() - r.openedAt!.getTime(), 0) / closed.length,
      ),
      maxDrawdownBps: dd,
      avgLeverageX100: 1_000,
      trackDays: 0,
      equityMinor: equity,
    });
    expect(total).toBeLessThan(0); // five round trips at the spread pay fees
    expect(dd).toBeGreaterThan(0);
  });
});

describe('following', () => {
  it('refuses below the minimum, oneself and an overdraft, moving nothing', async () => {
    const before = await h.moneyState();
    expect(
      await refused(
        'follow/start',
        { mentorId, amountMinor: MENTOR_DEFAULTS.minFollowMinor - 1, days: 30 },
        A.token,
        idem(),
      ),
    ).toBe('belowMinFollow');
    expect(
      await refused('follow/start', { mentorId, amountMinor: 100_000 * NT, days: 30 }, mentor.token, idem()),
    ).toBe('cannotFollowSelf');
    expect(
      await refused('follow/start', { mentorId, amountMinor: 100_001 * NT, days: 30 }, D.token, idem()),
    ).toBe('insufficientBalance');
    expect(
      await refused(
        'follow/start',
        { mentorId, amountMinor: 100_000 * NT, days: 30, stopLossBps: 9_600 },
        A.token,
        idem(),
      ),
    ).toBe('parameterError');
    expect(await h.moneyState()).toEqual(before);
  });

  it('freezes each amount into the follow sub-account; a retry with the same key follows once', async () => {
    const key = idem();
    const a1 = await ok('follow/start', { mentorId, amountMinor: 500_000 * NT, days: 30 }, A.token, key);
    const a2 = await ok('follow/start', { mentorId, amountMinor: 500_000 * NT, days: 30 }, A.token, key);
    expect(a2.id).toBe(a1.id);
    follow.A = a1.id;
    follow.B = (
      await ok('follow/start', { mentorId, amountMinor: 300_000 * NT, days: 30 }, B.token, idem())
    ).id;
    follow.C = (
      await ok('follow/start', { mentorId, amountMinor: 200_000 * NT, days: 30 }, C.token, idem())
    ).id;
    follow.D = (
      await ok('follow/start', { mentorId, amountMinor: 50_000 * NT, days: 30 }, D.token, idem())
    ).id;
    expect(a1).toMatchObject({
      status: 'following',
      paused: false,
      cashMinor: 500_000 * NT,
      stopLossBps: 4_000,
    });
    expect(a1.deadlineAt).toBe(h.wall.now + 30 * DAY_MS);
    const bA = await memberBalances(h.database.db, A.id);
    expect(bA.available).toBe(200_000 * NT);
    expect((await ok('follow/list', {}, A.token)).total).toBe(1);
    const m = await ok('mentor/info', { mentorId }, A.token);
    expect(m.stats.fundScaleMinor).toBe((500_000 + 300_000 + 200_000 + 50_000) * NT);
    await ledgerHolds();
  });
});

describe('mirroring', () => {
  let mentorOrder: { id: number; lots: number };
  let equity: number;

  it('copies a mentor order to three followers in lots by hand, and records the one too small', async () => {
    const b = await memberBalances(h.database.db, mentor.id);
    equity = b.available + b.frozen + b.margin + b.debt;
    // 1,000,000 NT$ less five round trips' fees and taxes: a little under NT$1,000,000.
    expect(equity).toBeLessThan(1_000_000 * NT);
    expect(equity).toBeGreaterThan(990_000 * NT);
    mentorOrder = await ok(
      'trade/placeOrder',
      { symbol: '2317', side: 'long', orderType: 'market', lots: 10, leverage: 10 },
      mentor.token,
    );
    const after = await memberBalances(h.database.db, mentor.id);
    const equityAfter = after.available + after.frozen + after.margin + after.debt;
    await h.copyTrading.runOnce();
    const copies = await h.database.db.select().from(followCopies).orderBy(followCopies.followId);
    // By hand: equity E ≈ NT$99x,xxx, so 10 × 500,000 ÷ E = 5.0x → 5; 10 × 300,000 ÷ E → 3;
    // 10 × 200,000 ÷ E → 2; 10 × 50,000 ÷ E = 0.50x → 0 (skipped).
    const byFollow = Object.fromEntries(copies.map((c) => [c.followId, c]));
    expect(byFollow[follow.A!]).toMatchObject({ lots: 5, status: 'open', reason: null, mentorLots: 10 });
    expect(byFollow[follow.B!]).toMatchObject({ lots: 3, status: 'open' });
    expect(byFollow[follow.C!]).toMatchObject({ lots: 2, status: 'open' });
    expect(byFollow[follow.D!]).toMatchObject({
      lots: 0,
      status: 'skipped',
      reason: 'zeroLots',
      orderId: null,
    });
    for (const c of copies) expect(c.mentorEquityMinor).toBe(equityAfter);
    for (const [who, lots] of [
      [A, 5],
      [B, 3],
      [C, 2],
    ] as const) {
      const [o] = await h.database.db.select().from(orders).where(eq(orders.userId, who.id));
      expect(o).toMatchObject({ symbol: '2317', side: 'long', lots, leverage: 10, status: 'holding' });
      const [f] = await h.database.db.select().from(follows).where(eq(follows.userId, who.id));
      expect(f!.cashMinor).toBe(f!.amountMinor - o!.marginMinor - o!.openFeeMinor - o!.openTaxMinor);
      // The member's own wallet paid nothing.
      expect((await memberBalances(h.database.db, who.id)).margin).toBe(o!.marginMinor);
    }
    expect((await memberBalances(h.database.db, A.id)).available).toBe(200_000 * NT);
    // D sees the skipped order and its reason in the follow record.
    const rec = await ok('follow/records', { followId: follow.D }, D.token);
    expect(rec.items).toEqual([
      expect.objectContaining({ mentorOrderId: mentorOrder.id, status: 'skipped', reason: 'zeroLots' }),
    ]);
    // Another member cannot read it.
    expect(await refused('follow/records', { followId: follow.D }, A.token)).toBe('notFound');
    await ledgerHolds();
  });

  it('a retried pass never opens a second copy', async () => {
    await h.copyTrading.runOnce();
    await mirrorPass(deps());
    const n = await h.database.db.select().from(followCopies);
    expect(n).toHaveLength(4);
    const copiesOfA = await h.database.db.select().from(orders).where(eq(orders.userId, A.id));
    expect(copiesOfA).toHaveLength(1);
  });

  it("the mentor's close closes the copies and returns their proceeds to each follow", async () => {
    await advanceMarket(h, 5 * 60_000);
    await ok('trade/closePosition', { orderId: mentorOrder.id }, mentor.token);
    await h.copyTrading.runOnce();
    const copies = await h.database.db.select().from(followCopies).where(eq(followCopies.status, 'closed'));
    expect(copies).toHaveLength(3);
    for (const c of copies) expect(c.reason).toBe('mentorClosed');
    for (const who of [A, B, C]) {
      const [o] = await h.database.db.select().from(orders).where(eq(orders.userId, who.id));
      // The copy's order carries the true reason, not "by the member".
      expect(o).toMatchObject({ status: 'closed', closeReason: 'copyMentorClosed' });
      const [f] = await h.database.db.select().from(follows).where(eq(follows.userId, who.id));
      const cost = o!.openFeeMinor + o!.openTaxMinor + o!.closeFeeMinor + o!.closeTaxMinor;
      const net = o!.pnlMinor! - cost;
      const share = net > 0 ? Math.floor((net * MENTOR_DEFAULTS.profitShareBps) / 10_000) : 0;
      expect(f).toMatchObject({ realisedMinor: net, profitShareMinor: share });
      expect(f!.cashMinor).toBe(f!.amountMinor + net - share);
      const [c] = copies.filter((x) => x.orderId === o!.id);
      expect(c).toMatchObject({ pnlMinor: net, profitShareMinor: share });
      const bal = await memberBalances(h.database.db, who.id);
      expect(bal.margin).toBe(0);
    }
    await ledgerHolds();
  });
});

describe('concurrency and margin failure', () => {
  it('two follows at once that together overdraw: one is refused, the balance never goes negative', async () => {
    const E = await member('0911000006', 100_000 * NT);
    const body = { mentorId, amountMinor: 60_000 * NT, days: 10 };
    const [r1, r2] = await Promise.all([
      h.call('follow/start', body, E.token, idem()),
      h.call('follow/start', body, E.token, idem()),
    ]);
    const answers = [r1.body, r2.body].map((b) => (b.status === 1 ? 'ok' : b.msg)).sort();
    expect(answers).toEqual(['insufficientBalance', 'ok']);
    const b = await memberBalances(h.database.db, E.id);
    expect(b.available).toBe(40_000 * NT);
    expect(await h.database.db.select().from(follows).where(eq(follows.userId, E.id))).toHaveLength(1);
    await ledgerHolds();
  });

  it('a copy the follow cannot pay is skipped with reason margin, though the wallet could have paid', async () => {
    const m = await ok(
      'trade/placeOrder',
      { symbol: '2317', side: 'long', orderType: 'market', lots: 10, leverage: 10 },
      mentor.token,
    );
    const [row] = await h.database.db.select().from(orders).where(eq(orders.id, m.id));
    const dBefore = await memberBalances(h.database.db, D.id);
    // As if the mentor's equity were NT$100,000 (say, after a withdrawal): D's NT$50,000 then
    // copies floor(10 × 50,000 ÷ 100,000) = 5 lots, ~NT$71,500 of margin: more than the
    // follow's cash, less than cash + D's own NT$50,000.
    const copy = await mirrorOpen(deps(), row!, follow.D!, 100_000 * NT);
    expect(copy).toMatchObject({ lots: 5, status: 'skipped', reason: 'margin', orderId: null });
    expect(await memberBalances(h.database.db, D.id)).toEqual(dBefore);
    expect(await h.database.db.select().from(orders).where(eq(orders.userId, D.id))).toHaveLength(0);
    await ledgerHolds();

    // Passes running at once copy each follow once (the record above stands for D).
    await Promise.all([mirrorPass(deps()), mirrorPass(deps()), h.copyTrading.runOnce()]);
    const recs = await h.database.db.select().from(followCopies).where(eq(followCopies.mentorOrderId, m.id));
    const perFollow = new Map<number, number>();
    for (const r of recs) perFollow.set(r.followId, (perFollow.get(r.followId) ?? 0) + 1);
    expect([...perFollow.values()].every((n) => n === 1)).toBe(true);
    expect(perFollow.size).toBe(5);
    expect(recs.find((r) => r.followId === follow.D)!.reason).toBe('margin');
    const aOrders = await h.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, A.id), eq(orders.status, 'holding')));
    expect(aOrders).toHaveLength(1);
    await ok('trade/closePosition', { orderId: m.id }, mentor.token);
    await h.copyTrading.runOnce();
    expect(
      await h.database.db.select().from(followCopies).where(eq(followCopies.status, 'open')),
    ).toHaveLength(0);
    await ledgerHolds();
  });
});

describe('a mentor order closed before any pass saw it', () => {
  it('is recorded for every running follow as not copied (mentorClosedFirst), once', async () => {
    const o = await ok(
      'trade/placeOrder',
      { symbol: '2317', side: 'long', orderType: 'market', lots: 10, leverage: 10 },
      mentor.token,
    );
    await ok('trade/closePosition', { orderId: o.id }, mentor.token);
    await h.copyTrading.runOnce();
    await h.copyTrading.runOnce();
    const recs = await h.database.db.select().from(followCopies).where(eq(followCopies.mentorOrderId, o.id));
    const running = await h.database.db.select().from(follows).where(eq(follows.status, 'following'));
    expect(recs.map((r) => r.followId).sort()).toEqual(running.map((f) => f.id).sort());
    for (const r of recs)
      expect(r).toMatchObject({ status: 'skipped', reason: 'mentorClosedFirst', orderId: null });
    const rec = await ok('follow/records', { followId: follow.A }, A.token);
    expect(rec.items[0]).toMatchObject({ mentorOrderId: o.id, reason: 'mentorClosedFirst' });
    await ledgerHolds();
  });
});

describe('copy stop-loss, pause, stop and profit share', () => {
  it('paused follows record the mentor order as skipped (paused)', async () => {
    const p = await ok('follow/pause', { followId: follow.B }, B.token);
    expect(p.paused).toBe(true);
    const { o, c } = await mentorOpens('2330', 2, follow.B!);
    expect(c).toMatchObject({ status: 'skipped', reason: 'paused' });
    expect((await ok('follow/resume', { followId: follow.B }, B.token)).paused).toBe(false);
    // Clean up: the mentor closes, the copies of A and C close with it.
    await ok('trade/closePosition', { orderId: o.id }, mentor.token);
    await h.copyTrading.runOnce();
    const open = await h.database.db.select().from(followCopies).where(eq(followCopies.status, 'open'));
    expect(open).toHaveLength(0);
    await ledgerHolds();
  });

  it('fires when the follow equity reaches its floor: all of its copies close', async () => {
    const o = await ok(
      'trade/placeOrder',
      { symbol: '2317', side: 'long', orderType: 'market', lots: 10, leverage: 10 },
      mentor.token,
    );
    await h.copyTrading.runOnce();
    const [copyA] = await h.database.db
      .select()
      .from(followCopies)
      .where(and(eq(followCopies.followId, follow.A!), eq(followCopies.mentorOrderId, o.id)));
    expect(copyA!.status).toBe('open');
    // At the real quote A is far above its 40 % floor: nothing fires.
    await mirrorPass(deps());
    const [f] = await h.database.db.select().from(follows).where(eq(follows.id, follow.A!));
    const real = await followEquity(deps(), f!);
    expect(real).toBeGreaterThan(f!.amountMinor * 0.6);
    // The stop-loss sees a bid 60 % lower (a crash the replayed day does not have); the copies
    // close at the real market through the engine.
    const crashed: CopyDeps = {
      ...deps(),
      feed: {
        ...h.feed,
        quote: (s: string) => {
          const q = h.feed.quote(s);
          return q && s === '2317' ? { ...q, bidMinor: Math.floor(q.bidMinor * 0.4) } : q;
        },
      } as CopyDeps['feed'],
    };
    expect(await followEquity(crashed, f!)).toBeLessThanOrEqual(f!.amountMinor * 0.6);
    await mirrorPass(crashed);
    const closed = await h.database.db
      .select()
      .from(followCopies)
      .where(eq(followCopies.mentorOrderId, o.id));
    const reasons = Object.fromEntries(closed.map((c) => [c.followId, `${c.status}/${c.reason}`]));
    // Every follow with a copy of 2317 sees the same crash: A, B and C are all stopped out.
    expect(reasons[follow.A!]).toBe('closed/stopLoss');
    expect(reasons[follow.B!]).toBe('closed/stopLoss');
    expect(reasons[follow.C!]).toBe('closed/stopLoss');
    const [oa] = await h.database.db.select().from(orders).where(eq(orders.id, copyA!.orderId!));
    expect(oa).toMatchObject({ status: 'closed', closeReason: 'copyStopLoss' });
    // The mentor's own order is untouched.
    const [mo] = await h.database.db.select().from(orders).where(eq(orders.id, o.id));
    expect(mo!.status).toBe('holding');
    await ok('trade/closePosition', { orderId: o.id }, mentor.token);
    await h.copyTrading.runOnce();
    await ledgerHolds();
  });

  it('stop returns the equity; no share below the high-water mark', async () => {
    const [f] = await h.database.db.select().from(follows).where(eq(follows.id, follow.C!));
    expect(f!.cashMinor).toBeLessThan(f!.highWaterMinor); // fees and spreads: a loss
    const before = await memberBalances(h.database.db, C.id);
    const mentorBefore = await memberBalances(h.database.db, mentor.id);
    // A stop without a key runs nothing.
    expect(await refused('follow/stop', { followId: follow.C }, C.token)).toBe('idempotencyKeyRequired');
    const key = idem();
    const stopped = await ok('follow/stop', { followId: follow.C }, C.token, key);
    expect(stopped).toMatchObject({
      status: 'ended',
      endReason: 'member',
      returnedMinor: f!.cashMinor,
      profitShareMinor: f!.profitShareMinor,
      cashMinor: 0,
    });
    const returns = async () =>
      (
        await h.database.db
          .select({ id: ledgerTransactions.id })
          .from(ledgerTransactions)
          .where(
            and(eq(ledgerTransactions.type, 'followReturn'), eq(ledgerTransactions.refId, String(follow.C))),
          )
      ).length;
    expect(await returns()).toBe(1);
    // The retried tap (same key) gets the first answer and moves nothing again.
    const retried = await h.call('follow/stop', { followId: follow.C }, C.token, key);
    expect([retried.http, retried.body.status, retried.body.data]).toEqual([200, 1, stopped]);
    expect(await returns()).toBe(1);
    expect((await memberBalances(h.database.db, C.id)).available).toBe(before.available + f!.cashMinor);
    expect((await memberBalances(h.database.db, mentor.id)).available).toBe(mentorBefore.available);
    // A new tap (a new key) finds the follow ended.
    expect(await refused('follow/stop', { followId: follow.C }, C.token, idem())).toBe('followNotRunning');
    expect(await refused('follow/stop', { followId: follow.A }, C.token, idem())).toBe('notFound');
    await ledgerHolds();
  });

  it('pays the mentor its share of the profit above the high-water mark only', async () => {
    // Choose the side and symbol the replayed day moves most in from now to its close.
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
    const o = await ok(
      'trade/placeOrder',
      { symbol: best.symbol, side: best.side, orderType: 'market', lots: 10, leverage: 10 },
      mentor.token,
    );
    await h.copyTrading.runOnce();
    const [copyA] = await h.database.db
      .select()
      .from(followCopies)
      .where(and(eq(followCopies.followId, follow.A!), eq(followCopies.mentorOrderId, o.id)));
    expect(copyA!.status).toBe('open');
    // To 13:20 of the replayed day, near its close.
    const clock = h.feed.clock().now;
    const at1320 = taipeiDayStart(clock) + (13 * 60 + 20) * 60_000;
    await advanceMarket(h, at1320 - clock, 10 * 60_000);
    const [f] = await h.database.db.select().from(follows).where(eq(follows.id, follow.A!));
    const mentorBefore = await memberBalances(h.database.db, mentor.id);
    const aBefore = await memberBalances(h.database.db, A.id);
    // The stop closes the open copy and settles in the request's transaction; the retried tap
    // (same key) gets the first answer and closes and pays nothing again.
    const key = idem();
    const stopped = await ok('follow/stop', { followId: follow.A }, A.token, key);
    const afterStop = [
      await memberBalances(h.database.db, A.id),
      await memberBalances(h.database.db, mentor.id),
    ];
    const retried = await h.call('follow/stop', { followId: follow.A }, A.token, key);
    expect(retried.body).toMatchObject({ status: 1, data: stopped });
    expect([
      await memberBalances(h.database.db, A.id),
      await memberBalances(h.database.db, mentor.id),
    ]).toEqual(afterStop);
    const [copy] = await h.database.db.select().from(followCopies).where(eq(followCopies.id, copyA!.id));
    expect(copy).toMatchObject({ status: 'closed', reason: 'followStopped' });
    const [oa] = await h.database.db.select().from(orders).where(eq(orders.id, copyA!.orderId!));
    expect(oa!.closeReason).toBe('copyFollowEnded');
    const equity = f!.cashMinor + oa!.marginMinor + oa!.pnlMinor! - oa!.closeFeeMinor - oa!.closeTaxMinor;
    // The share is settled at the copy's close, on the realised level above the high-water mark.
    const net = oa!.pnlMinor! - oa!.openFeeMinor - oa!.openTaxMinor - oa!.closeFeeMinor - oa!.closeTaxMinor;
    const level = f!.amountMinor + f!.realisedMinor + net;
    expect(level).toBeGreaterThan(f!.highWaterMinor);
    const share = Math.floor(((level - f!.highWaterMinor) * MENTOR_DEFAULTS.profitShareBps) / 10_000);
    expect(share).toBeGreaterThan(0);
    expect(copy).toMatchObject({ pnlMinor: net, profitShareMinor: share });
    expect(stopped).toMatchObject({
      status: 'ended',
      profitShareMinor: f!.profitShareMinor + share,
      highWaterMinor: level,
      returnedMinor: equity - share,
    });
    expect((await memberBalances(h.database.db, mentor.id)).available).toBe(mentorBefore.available + share);
    expect((await memberBalances(h.database.db, A.id)).available).toBe(aBefore.available + equity - share);
    // The fund records carry both flows.
    const types = await h.database.db.execute<{ type: string }>(
      sql`select type from ledger_transactions where ref_type = 'follow' and ref_id = ${String(follow.A)} order by id`,
    );
    const list = ((types as unknown as { rows?: unknown[] }).rows ??
      (types as unknown as unknown[])) as Array<{ type: string }>;
    expect(list.map((r) => r.type)).toEqual(
      expect.arrayContaining(['followAllocate', 'followTransfer', 'followRebate', 'followReturn']),
    );
    await ok('trade/closePosition', { orderId: o.id }, mentor.token);
    await h.copyTrading.runOnce();
    await ledgerHolds();
  });
});

describe('operator and deadline', () => {
  it('the operator sees every follow and its records, and cancels one: equity returned, audited', async () => {
    const all = await ok('admin/follows', { pageSize: 50 }, op);
    expect(all.total).toBe(5);
    expect(all.items.find((f: { id: number }) => f.id === follow.B)).toMatchObject({
      userId: B.id,
      account: '0911000003',
      status: 'following',
    });
    expect((await ok('admin/follows', { mentorId: mentorId + 1 }, op)).total).toBe(0);
    const rec = await ok('admin/followRecords', { id: follow.D }, op);
    expect(rec.items.some((c: { reason: string }) => c.reason === 'zeroLots')).toBe(true);
    const [f] = await h.database.db.select().from(follows).where(eq(follows.id, follow.B!));
    const before = await memberBalances(h.database.db, B.id);
    const cancelled = await ok('admin/cancelFollow', { id: follow.B, reason: 'member asked' }, op);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      endReason: 'operator',
      cashMinor: 0,
      // No open copy: the cash returns whole (shares were settled at each close).
      returnedMinor: f!.cashMinor,
      profitShareMinor: f!.profitShareMinor,
    });
    expect((await memberBalances(h.database.db, B.id)).available).toBe(
      before.available + cancelled.returnedMinor,
    );
    const [a] = await h.database.db.select().from(auditLog).where(eq(auditLog.action, 'follow.cancel'));
    expect(a).toMatchObject({
      actorUserId: opId,
      targetType: 'follow',
      targetId: String(follow.B),
      reason: 'member asked',
    });
    expect(await refused('admin/cancelFollow', { id: follow.B, reason: 'again' }, op)).toBe(
      'followNotRunning',
    );
    await ledgerHolds();
  });

  it('a follow past its deadline ends by itself and returns its equity', async () => {
    const [f] = await h.database.db.select().from(follows).where(eq(follows.id, follow.D!));
    expect(f!.status).toBe('following');
    const before = await memberBalances(h.database.db, D.id);
    await h.database.db
      .update(follows)
      .set({ deadlineAt: new Date(h.wall.now - 1) })
      .where(eq(follows.id, follow.D!));
    await h.copyTrading.runOnce();
    const [ended] = await h.database.db.select().from(follows).where(eq(follows.id, follow.D!));
    expect(ended).toMatchObject({
      status: 'ended',
      endReason: 'deadline',
      cashMinor: 0,
      returnedMinor: f!.cashMinor,
    });
    expect((await memberBalances(h.database.db, D.id)).available).toBe(before.available + f!.cashMinor);
    await ledgerHolds();
  });
});

describe("a copy's risk pool: the follow's own equity", () => {
  it("is not liquidated while the follow's equity covers it, and is when it no longer does", async () => {
    // G puts the whole wallet into the follow: nothing of G's own backs the copy.
    const G = await member('0911000008', 120_000 * NT);
    const f = await ok('follow/start', { mentorId, amountMinor: 120_000 * NT, days: 30 }, G.token, idem());
    expect((await memberBalances(h.database.db, G.id)).available).toBe(0);
    const { o: m, c: copy } = await mentorOpens('2317', 10, f.id);
    expect(copy).toMatchObject({ status: 'open', lots: 1 });
    const held = async () =>
      (await h.database.db.select().from(orders).where(eq(orders.id, copy!.orderId!)))[0]!.status;
    // Counted against G's wallet alone (available 0) the copy would stand at ~100 % of its margin,
    // below maintenance (110 %); against the follow's cash it stands at ~1,000 %.
    await advanceMarket(h, 60_000);
    await h.risk.idle();
    expect(await held()).toBe('holding');
    const [o] = await h.database.db.select().from(orders).where(eq(orders.id, copy!.orderId!));
    const thresholds = { marginCallBps: h.config.marginCallBps, maintenanceBps: h.config.maintenanceBps };
    const marked = (lastMinor: number): CopyDeps['feed'] =>
      ({
        ...h.feed,
        quote: (sym: string) => {
          const q = h.feed.quote(sym);
          return q && sym === '2317' ? { ...q, lastMinor } : q;
        },
      }) as CopyDeps['feed'];
    const monitorAt = (lastMinor: number) =>
      createRiskMonitor({ db: h.database.db, feed: marked(lastMinor), closer: h.trading, thresholds });
    const [fr] = await h.database.db.select().from(follows).where(eq(follows.id, f.id));
    const poolEquity = (mark: number) =>
      fr!.cashMinor + o!.marginMinor + (mark - o!.openPriceMinor!) * o!.shares;
    // A 40 % fall: the follow's equity still covers the copy (its own margin would not).
    const fall = Math.floor(o!.openPriceMinor! * 0.6);
    expect(o!.marginMinor + (fall - o!.openPriceMinor!) * o!.shares).toBeLessThan(0);
    expect(poolEquity(fall) * 10_000).toBeGreaterThanOrEqual(o!.marginMinor * thresholds.maintenanceBps);
    // The summary shows the copy's liquidation price from the same pool: at or above the crash,
    // below the fall, and computed from the follow's figures, not the wallet's.
    const shown = (await ok('risk/summary', {}, G.token)).positions.find(
      (p: { orderId: number }) => p.orderId === o!.id,
    ).liquidationPriceMinor;
    expect(shown).toBe(
      liquidationPriceMinor({
        side: 'long',
        openValueMinor: o!.openValueMinor!,
        shares: o!.shares,
        kind: 'stock',
        otherEquityMinor: fr!.cashMinor + o!.marginMinor,
        usedMarginMinor: o!.marginMinor,
        maintenanceBps: thresholds.maintenanceBps,
      }),
    );
    expect(shown).toBeLessThan(fall);
    const crash = Math.floor(o!.openPriceMinor! * 0.1);
    expect(shown).toBeGreaterThanOrEqual(crash);
    const kept = await monitorAt(fall).evaluate(G.id);
    expect(kept.liquidated).toEqual([]);
    expect(await held()).toBe('holding');
    // A 90 % fall: the follow's equity no longer covers it: liquidated, recorded with the follow.
    expect(poolEquity(crash) * 10_000).toBeLessThan(o!.marginMinor * thresholds.maintenanceBps);
    const gone = await monitorAt(crash).evaluate(G.id);
    expect(gone.liquidated).toEqual([o!.id]);
    expect(await held()).toBe('closed');
    const [ev] = await h.database.db
      .select()
      .from(riskEvents)
      .where(and(eq(riskEvents.userId, G.id), eq(riskEvents.kind, 'liquidation')));
    expect(JSON.parse(ev!.detail!)).toMatchObject({ followId: f.id, symbol: '2317' });
    // Settled in the liquidation's own transaction, recorded as a liquidation (not the member's
    // close): the proceeds are back in the follow's cash before any pass.
    const [settled] = await h.database.db.select().from(followCopies).where(eq(followCopies.id, copy!.id));
    expect(settled).toMatchObject({ status: 'closed', reason: 'liquidation' });
    const listed = (await ok('follow/records', { followId: f.id }, G.token)).items;
    expect(listed.find((c: { id: number }) => c.id === copy!.id)).toMatchObject({ reason: 'liquidation' });
    const [lo] = await h.database.db.select().from(orders).where(eq(orders.id, copy!.orderId!));
    expect(lo!.closeReason).toBe('liquidation');
    const [fAfter] = await h.database.db.select().from(follows).where(eq(follows.id, f.id));
    const proceeds = lo!.marginMinor + lo!.pnlMinor! - lo!.closeFeeMinor - lo!.closeTaxMinor;
    expect(fAfter!.cashMinor).toBe(
      fr!.cashMinor + Math.max(proceeds, -fr!.cashMinor) - fAfter!.profitShareMinor,
    );
    await h.copyTrading.runOnce();
    await ok('trade/closePosition', { orderId: m.id }, mentor.token);
    await h.copyTrading.runOnce();
    await ledgerHolds();
  });
});

describe('after continuous trading', () => {
  it('a mentor order filled at the closing call is recorded as not copied (refused), visibly', async () => {
    const F = await member('0911000007', 600_000 * NT);
    const f = await ok('follow/start', { mentorId, amountMinor: 500_000 * NT, days: 30 }, F.token, idem());
    await replayTo(h, 13, 26);
    const q = h.feed.quote('2317')!;
    const o = await ok(
      'trade/placeOrder',
      {
        symbol: '2317',
        side: 'long',
        orderType: 'limit',
        priceMinor: q.limitUpMinor,
        lots: 10,
        leverage: 10,
      },
      mentor.token,
    );
    expect(o.status).toBe('pending');
    await replayTo(h, 13, 30, 30);
    const [filled] = await h.database.db.select().from(orders).where(eq(orders.id, o.id));
    expect(filled!.status).toBe('holding');
    await h.copyTrading.runOnce();
    const [rec] = await h.database.db
      .select()
      .from(followCopies)
      .where(and(eq(followCopies.followId, f.id), eq(followCopies.mentorOrderId, o.id)));
    // The engine's refusal is kept with the record: continuous trading is over.
    expect(rec).toMatchObject({
      status: 'skipped',
      reason: 'refused',
      refusal: 'nonTradingTime',
      orderId: null,
      lots: 5,
    });
    const notice = (await ok('notice/list', { tab: 'account' }, F.token)).items.find(
      (n: { kind: string; params: { mentorOrderId: number } }) =>
        n.kind === 'copySkipped' && n.params.mentorOrderId === o.id,
    );
    expect(notice.params).toMatchObject({ copyReason: 'refused', refusal: 'nonTradingTime', lots: 5 });
    expect(await h.database.db.select().from(orders).where(eq(orders.userId, F.id))).toHaveLength(0);
    await ledgerHolds();
  });
});
