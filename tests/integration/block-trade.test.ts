/**
 * Block trades (鉅額交易) and placements (配售) through the HTTP API on the harness's manual
 * market clock (PGlite by default, PostgreSQL with --project postgres): TWSE Block Trading Rules
 * as docs/tw-market-rules.md "Block trades" states them.
 * - block trade: the block-trade password is required (not set, wrong, right); its state
 *   (user/blockTradePassword: set, wrong tries left) and the set / changed outcomes and toasts; under 500 lots and
 *   NT$15,000,000 refused (blockTradeMinimum); a price outside today's limits refused; more lots
 *   than the offering has left refused; an application holds price × lots × 1,000; one approved
 *   (a long holding without margin at the application's price, frozen → margin) and one rejected
 *   (released, with the reason), both audited; the applicant's own operator review is not
 *   possible (operators are not members); a second review refused;
 * - placement: only members with a verified real name; at the offering's fixed price; approved
 *   into a holding;
 * - concurrent applications of one member never hold more than it has, and never oversell;
 * - the ledger reconciles after each.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, orders } from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { idem, startHarness, type Harness } from './harness';

const FUNDS = 5_000_000_000; // NT$50,000,000
let h: Harness;
let op: string;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, headers = {}) {
  const r = await h.call(name, body, token, headers);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const today = () => h.ipo.calendar.today();
const clean = async () => expect(isClean(await reconcile(h.database.db))).toBe(true);
const bal = (id: number) => memberBalances(h.database.db, id);

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
});
afterAll(async () => {
  await h?.close();
});

describe('block trades', () => {
  let offeringId: number;
  let token: string;
  let userId: number;
  let up: number;
  let down: number;
  let price: number;
  let approvedId: number;
  let rejectedId: number;

  it('needs the block-trade password, the minimum, a price within the limits, lots left', async () => {
    const q = h.feed.quote('2330')!;
    up = q.limitUpMinor;
    down = q.limitDownMinor;
    price = q.lastMinor;
    offeringId = (
      await ok(
        'admin/saveOffering',
        {
          kind: 'blockTrade',
          symbol: '2330',
          name: '台積電',
          priceMinor: price,
          lots: 60,
          startDay: today(),
          endDay: today() + 1,
          listingDay: today() + 2,
        },
        op,
      )
    ).id;
    token = await h.fundedMember('0950000001', FUNDS);
    userId = await h.userId('0950000001');
    const stocks = await ok('blockTrade/offerings', { kind: 'blockTrade' }, token);
    expect(stocks.items[0]).toMatchObject({
      id: offeringId,
      nameEn: 'TSMC',
      lotsLeft: 60,
      limitUpMinor: up,
      phase: 'inProgress',
    });

    // 20 lots of 2330 are worth more than NT$15,000,000 at its 2025 prices (NT$750 and up).
    expect(price * 20 * 1000).toBeGreaterThanOrEqual(1_500_000_000);
    const body = { offeringId, priceMinor: price, lots: 20, password: '246810' };
    const apply = (b: object) => h.call('blockTrade/apply', b, token, idem());
    expect((await apply(body)).body.msg).toBe('blockTradePasswordNotSet');
    const state = () => ok('user/blockTradePassword', {}, token);
    expect(await state()).toEqual({ set: false, locked: false, triesLeft: 5 });
    const first = await h.call(
      'user/setBlockTradePassword',
      { password: '135790', confirmPassword: '135790' },
      token,
    );
    expect(first.body).toMatchObject({ status: 1, msg: 'blockTradePasswordSet', data: { outcome: 'set' } });
    expect(await state()).toEqual({ set: true, locked: false, triesLeft: 5 });
    const change = (oldPassword: string) =>
      h.call(
        'user/setBlockTradePassword',
        { oldPassword, password: '246810', confirmPassword: '246810' },
        token,
      );
    expect((await change('000000')).body.msg).toBe('blockTradePasswordWrong');
    expect(await state()).toEqual({ set: true, locked: false, triesLeft: 4 });
    expect((await change('135790')).body).toMatchObject({
      status: 1,
      msg: 'passwordChanged',
      data: { outcome: 'changed' },
    });
    expect(await state()).toEqual({ set: true, locked: false, triesLeft: 5 });
    expect((await apply({ ...body, password: '111111' })).body.msg).toBe('blockTradePasswordWrong');
    const small = Math.floor(1_500_000_000 / (price * 1000)) - 1 || 1;
    expect((await apply({ ...body, lots: small })).body.msg).toBe('blockTradeMinimum');
    expect((await apply({ ...body, priceMinor: up + 1 })).body.msg).toBe('blockTradePrice');
    expect((await apply({ ...body, priceMinor: down - 1 })).body.msg).toBe('blockTradePrice');
    expect((await apply({ ...body, lots: 61 })).body.msg).toBe('blockTradeMaximum');
    await clean();
  });

  it('holds the amount; approval makes a long holding without margin, rejection releases it', async () => {
    const a = await ok(
      'blockTrade/apply',
      { offeringId, priceMinor: price, lots: 20, password: '246810' },
      token,
      idem(),
    );
    expect(a).toMatchObject({ status: 'pendingReview', amountMinor: price * 20_000, nameEn: 'TSMC' });
    const b = await ok(
      'blockTrade/apply',
      { offeringId, priceMinor: down, lots: 20, password: '246810' },
      token,
      idem(),
    );
    approvedId = a.id;
    rejectedId = b.id;
    const held = price * 20_000 + down * 20_000;
    expect(await bal(userId)).toMatchObject({ available: FUNDS - held, frozen: held });
    const pending = await ok('admin/primaryApplications', { status: 'pendingReview' }, op);
    expect(pending.items.map((x: { id: number }) => x.id).sort()).toEqual([approvedId, rejectedId].sort());

    const approved = await ok('admin/approvePrimary', { id: approvedId }, op);
    expect(approved.status).toBe('approved');
    const [order] = await h.database.db.select().from(orders).where(eq(orders.id, approved.orderId));
    expect(order).toMatchObject({
      userId,
      symbol: '2330',
      side: 'long',
      leverage: 1,
      shares: 20_000,
      status: 'holding',
      openPriceMinor: price,
    });
    const rejected = await ok('admin/rejectPrimary', { id: rejectedId, reason: 'price too low' }, op);
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'price too low', orderId: null });
    expect(await bal(userId)).toMatchObject({
      available: FUNDS - price * 20_000,
      frozen: 0,
      margin: price * 20_000,
    });
    const again = await h.call('admin/approvePrimary', { id: rejectedId }, op);
    expect([again.http, again.body.msg]).toEqual([409, 'primaryNotPending']);
    const audits = await h.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'primaryApplication')));
    expect(audits.map((x) => x.action).sort()).toEqual(['primary.approve', 'primary.reject']);
    const mine = await ok('primary/applications', { kind: 'blockTrade' }, token);
    expect(mine.items.map((x: { status: string }) => x.status)).toEqual(['rejected', 'approved']);
    // 20 approved lots are taken; 40 left.
    const stocks = await ok('blockTrade/offerings', { kind: 'blockTrade' }, token);
    expect(stocks.items[0].lotsLeft).toBe(40);
    const listed = await ok('admin/offerings', { kind: 'blockTrade' }, op);
    expect(listed.items.find((o: { id: number }) => o.id === offeringId).entries).toBe(2);
    await clean();
  });

  it('concurrent applications never hold more than the member has nor oversell the offering', async () => {
    // Funds for 2 applications of 20 lots (and 40 lots left): of 8 concurrent, 2 are held.
    const t2 = await h.fundedMember('0950000002', price * 20_000 * 2 + 1_000);
    await ok('user/setBlockTradePassword', { password: '135791', confirmPassword: '135791' }, t2);
    const id2 = await h.userId('0950000002');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.call(
          'blockTrade/apply',
          { offeringId, priceMinor: price, lots: 20, password: '135791' },
          t2,
          idem(),
        ),
      ),
    );
    const accepted = answers.filter((r) => r.body.status === 1);
    expect(accepted).toHaveLength(2);
    for (const r of answers.filter((x) => x.body.status !== 1))
      expect(['insufficientBalance', 'blockTradeMaximum']).toContain(r.body.msg);
    expect(await bal(id2)).toMatchObject({ frozen: price * 40_000, available: 1_000 });
    const stocks = await ok('blockTrade/offerings', { kind: 'blockTrade' }, t2);
    expect(stocks.items[0].lotsLeft).toBe(0);
    await clean();
  });
});

describe('placements', () => {
  it('are for verified members at the fixed price, and allocate into a holding', async () => {
    const p = await ok(
      'admin/saveOffering',
      {
        kind: 'placement',
        symbol: '2317',
        name: '鴻海',
        priceMinor: 10_000,
        lots: 10,
        startDay: today(),
        endDay: today(),
        listingDay: today() + 1,
      },
      op,
    );
    // Unverified (so unfunded too: deposits need a verified identity).
    const unverified = await h.register('0960000001');
    const refused = await h.call('placement/apply', { offeringId: p.id, lots: 2 }, unverified, idem());
    expect([refused.http, refused.body.msg]).toEqual([403, 'placementNotEligible']);
    const verified = await h.withdrawer('0960000002', 50_000_000);
    const a = await ok('placement/apply', { offeringId: p.id, lots: 2 }, verified.token, idem());
    expect(a).toMatchObject({
      kind: 'placement',
      priceMinor: 10_000,
      amountMinor: 20_000_000,
      status: 'pendingReview',
    });
    expect(await bal(verified.userId)).toMatchObject({ available: 30_000_000, frozen: 20_000_000 });
    const done = await ok('admin/approvePrimary', { id: a.id }, op);
    const [order] = await h.database.db.select().from(orders).where(eq(orders.id, done.orderId));
    expect(order).toMatchObject({
      side: 'long',
      leverage: 1,
      shares: 2_000,
      openPriceMinor: 10_000,
      symbol: '2317',
    });
    expect(await bal(verified.userId)).toMatchObject({
      available: 30_000_000,
      frozen: 0,
      margin: 20_000_000,
    });
    await clean();
  });
});
