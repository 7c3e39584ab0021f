/**
 * A follower cannot avoid the mentor's profit share (copy trading; server/modules/copy-trading/
 * settlement.ts). The attack: close a profitable copy by hand, then move the cash out of the TWD
 * wallet at once (exchange it all to USD, withdraw it) before copy trading's next pass, so the
 * follow ends with nothing above its high-water mark. The copy's proceeds and the mentor's share
 * are settled in the close's own transaction, so:
 *
 * - sequential: close, then exchange all TWD: the share was paid at the close, the exchange only
 *   converts the member's own money, follow/stop reports the share;
 * - racing: the close, an exchange and a withdrawal of own money + the proceeds sent at the same
 *   moment: whichever runs first, the exchange and the withdrawal are refused (the proceeds never
 *   reach the wallet) and the share is paid once.
 *
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL (the racing requests in parallel
 * transactions there).
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyCandles, followCopies, follows, mentors, orders } from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { FUNDS_PASSWORD, idem, startHarness, TEST_SYMBOLS, type Harness } from '../integration/harness';
import { advanceMarket } from '../integration/trading-support';

const NT = 100;
const SHARE_BPS = 5_000;
let h: Harness;
let seq = 0;
/** Two followers, each holding a copy of the day's best move opened at 10:00. */
let scenarios: Array<{ s: Awaited<ReturnType<typeof setUp>>; orderId: number }>;

beforeAll(async () => {
  h = await startHarness({ marketSeed: 1 });
  scenarios = [];
  for (const lots of [4, 2]) {
    const s = await setUp();
    scenarios.push({ s, orderId: await copied(s, lots) });
  }
}, 120_000);
afterAll(async () => h?.close());

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, headers = {}) {
  const r = await h.call(name, body, token, headers);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** A mentor (approved directly) and a follower who can withdraw, following it with NT$500,000. */
async function setUp() {
  const n = ++seq;
  const mentorAccount = `096100000${n}`;
  const mToken = await h.fundedMember(mentorAccount, 1_000_000 * NT);
  const mId = await h.userId(mentorAccount);
  const [m] = await h.database.db
    .insert(mentors)
    .values({ userId: mId, status: 'approved', minFollowMinor: 10_000 * NT, profitShareBps: SHARE_BPS })
    .returning();
  const follower = await h.withdrawer(`096200000${n}`, 600_000 * NT);
  const f = await ok(
    'follow/start',
    { mentorId: m!.id, amountMinor: 500_000 * NT, days: 30 },
    follower.token,
    idem(),
  );
  return { mentor: { token: mToken, id: mId }, follower, followId: f.id as number };
}

/** The symbol and side the replayed day moves most in from now to its close. */
async function bestMove() {
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
  return best;
}

/** The mentor opens the best move; the pass copies it; returns the copy's order id. */
async function copied(s: Awaited<ReturnType<typeof setUp>>, lots: number): Promise<number> {
  const best = await bestMove();
  expect(best.move).toBeGreaterThan(0.005);
  const mo = await ok(
    'trade/placeOrder',
    { symbol: best.symbol, side: best.side, orderType: 'market', lots, leverage: 10 },
    s.mentor.token,
  );
  await h.copyTrading.runOnce();
  const [c] = await h.database.db
    .select()
    .from(followCopies)
    .where(and(eq(followCopies.followId, s.followId), eq(followCopies.mentorOrderId, mo.id)));
  expect(c!.status).toBe('open');
  return c!.orderId!;
}

const netOf = async (orderId: number) => {
  const [o] = await h.database.db.select().from(orders).where(eq(orders.id, orderId));
  return {
    o: o!,
    net: o!.pnlMinor! - o!.openFeeMinor - o!.openTaxMinor - o!.closeFeeMinor - o!.closeTaxMinor,
    proceeds: o!.marginMinor + o!.pnlMinor! - o!.closeFeeMinor - o!.closeTaxMinor,
  };
};
const rebatesTo = async (userId: number) => {
  const r = (await h.database.db.execute(sql`
    select coalesce(sum(p.amount_minor), 0) as s from ledger_postings p
    join ledger_transactions t on t.id = p.transaction_id
    join ledger_accounts a on a.id = p.account_id
    where t.type = 'followRebate' and a.user_id = ${userId}`)) as unknown as
    { rows?: Array<{ s: string }> } | Array<{ s: string }>;
  return Number(((r as { rows?: Array<{ s: string }> }).rows ?? (r as Array<{ s: string }>))[0]!.s);
};

describe('a follower avoiding the profit share', () => {
  it('close by hand, then exchange all TWD: the share was paid at the close', async () => {
    const { s, orderId } = scenarios[0]!;
    await advanceMarket(h, 150 * 60_000);
    const own = (await memberBalances(h.database.db, s.follower.userId)).available;
    await ok('trade/closePosition', { orderId }, s.follower.token, idem());
    const { net } = await netOf(orderId);
    expect(net, 'the copy closed at a profit').toBeGreaterThan(0);
    const share = Math.floor((net * SHARE_BPS) / 10_000);
    // At once, before any copy-trading pass: everything in the TWD wallet to USD.
    const all = (await memberBalances(h.database.db, s.follower.userId)).available;
    expect(all).toBe(own);
    await ok('user/exchange', { from: 'TWD', to: 'USD', amountMinor: all }, s.follower.token, idem());
    expect(await rebatesTo(s.mentor.id)).toBe(share);
    const stopped = await ok('follow/stop', { followId: s.followId }, s.follower.token, idem());
    expect(stopped).toMatchObject({ profitShareMinor: share, returnedMinor: 500_000 * NT + net - share });
    expect(await rebatesTo(s.mentor.id)).toBe(share);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('close racing an exchange and a withdrawal of the proceeds: both refused, the share paid once', async () => {
    const { s, orderId } = scenarios[1]!;
    await advanceMarket(h, 30 * 60_000);
    const own = (await memberBalances(h.database.db, s.follower.userId)).available;
    const [f0] = await h.database.db.select().from(follows).where(eq(follows.id, s.followId));
    // What the close will pay out (at the bid or ask now), as the attacker would estimate it.
    const [o0] = await h.database.db.select().from(orders).where(eq(orders.id, orderId));
    const q = h.feed.quote(o0!.symbol)!;
    const px = o0!.side === 'long' ? q.bidMinor : q.askMinor;
    const estimate =
      o0!.marginMinor + (o0!.side === 'long' ? 1 : -1) * (px - o0!.openPriceMinor!) * o0!.shares;
    const [close, exchange, withdraw] = await Promise.all([
      h.call('trade/closePosition', { orderId }, s.follower.token, idem()),
      h.call(
        'user/exchange',
        { from: 'TWD', to: 'USD', amountMinor: own + estimate },
        s.follower.token,
        idem(),
      ),
      h.call(
        'user/withdraw',
        { amountMinor: own + estimate, fundsPassword: FUNDS_PASSWORD, cardId: s.follower.cardId },
        s.follower.token,
        idem(),
      ),
    ]);
    expect(close.body.status).toBe(1);
    expect(exchange.body).toMatchObject({ status: 0, msg: 'insufficientBalance' });
    expect(withdraw.body.status).toBe(0);
    const { net, proceeds } = await netOf(orderId);
    expect(net, 'the copy closed at a profit').toBeGreaterThan(0);
    const share = Math.floor((net * SHARE_BPS) / 10_000);
    expect(await rebatesTo(s.mentor.id)).toBe(share);
    const [f1] = await h.database.db.select().from(follows).where(eq(follows.id, s.followId));
    expect(f1).toMatchObject({ cashMinor: f0!.cashMinor + proceeds - share, profitShareMinor: share });
    expect(await memberBalances(h.database.db, s.follower.userId)).toMatchObject({
      available: own,
      frozen: 0,
    });
    const stopped = await ok('follow/stop', { followId: s.followId }, s.follower.token, idem());
    expect(stopped.profitShareMinor).toBe(share);
    expect(await rebatesTo(s.mentor.id)).toBe(share);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
