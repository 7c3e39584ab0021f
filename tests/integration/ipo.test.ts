/**
 * Public subscription end to end through the HTTP API on the harness's manual market clock
 * (PGlite by default, PostgreSQL with TEST_DB=postgres): TSA underwriting rules Art. 53 as
 * docs/tw-market-rules.md "Public subscription" states them.
 * - oversubscribed (2 units, 4 qualified): NT$100 × 1,000 + 20 + 50 = NT$100,070 held at apply;
 *   an application without the money is unpaid and waived on deduction day (never drawn); the
 *   NT$20 is kept from every qualified one; the draw picks 2 that a re-run of the published draw
 *   (drawWinners over the published numbers with the revealed seed, whose sha256 is the commitment
 *   published before applications opened) reproduces; non-winners get NT$100,050 back on refund
 *   day; winners pay NT$50 and hold a long 1,000-share position without leverage from the listing
 *   day, which they can sell from the next day like any position;
 * - undersubscribed: no draw, every qualified application wins;
 * - one application per member and offering, also under 50 concurrent requests;
 * - the steps are idempotent (a second run on the same day does nothing) and the ledger reconciles
 *   after every step.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawCommitment, drawWinners } from '../../contract/ipo';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { ipoApplications, ipoOfferings, orders } from '../../server/db/schema';
import { isClean, memberBalances, platformBalance, reconcile } from '../../server/modules/ledger/ledger';
import { createOffering } from '../../server/modules/ipo/schedule';
import { runDue } from '../../server/modules/ipo/service';
import { idem, startHarness, type Harness } from './harness';

const FUNDS = 20_000_000; // NT$200,000
const PAYABLE = 10_007_000; // NT$100,070
let h: Harness;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, key?: string) {
  const r = await h.call(name, body, token, key === undefined ? {} : idem(key));
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const applyFor = (token: string, offeringId: number) => h.call('ipo/apply', { offeringId }, token, idem());

/** Moves the market clock `days` replayed days on and runs the subscription steps. */
async function advance(days: number): Promise<number> {
  h.wall.now += days * REPLAY_DAY_MS;
  h.feed.tick();
  return h.ipo.run();
}
const today = () => h.ipo.calendar.today();
const clean = async () => expect(isClean(await reconcile(h.database.db))).toBe(true);

async function newOffering(source: string, sharesOffered: number): Promise<number> {
  return createOffering(h.database.db, {
    source,
    symbol: '2330',
    name: '台積電',
    marketType: '上市增資',
    priceMinor: 10_000,
    sharesOffered,
    sharesPerApplication: 1000,
    applyStartDay: today(),
    realApplyStart: '2026-01-02',
    realDrawDate: '2026-01-08',
  });
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('oversubscribed public subscription', () => {
  const members: Array<{ token: string; id: number }> = [];
  let poor: { token: string; id: number };
  let offeringId: number;
  let feeBefore: number;

  it('holds NT$100,070 at apply; refuses a second application; accepts an unpaid one', async () => {
    offeringId = await newOffering('test:over', 2000);
    feeBefore = await platformBalance(h.database.db, 'fee_revenue');
    for (let i = 0; i < 4; i++) {
      const account = `091000000${i}`;
      const token = await h.fundedMember(account, FUNDS);
      members.push({ token, id: await h.userId(account) });
    }
    poor = { token: await h.fundedMember('0910000009', 5_000_000), id: await h.userId('0910000009') };

    const detail = await ok('ipo/detail', { id: offeringId }, members[0]!.token);
    expect(detail.offering.phase).toBe('inProgress');
    expect(detail.offering).toMatchObject({ symbol: '2330', name: '台積電', nameEn: 'TSMC' });
    expect(detail.offering.payableMinor).toBe(PAYABLE);
    expect(detail.offering.units).toBe(2);
    expect(detail.offering.pe).toBeNull();
    expect(detail.draw.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.draw.seed).toBeNull();

    for (const m of members) {
      const r = await applyFor(m.token, offeringId);
      expect(r.body.status).toBe(1);
      expect(r.body.data.status).toBe('waitingDraw');
      expect(await memberBalances(h.database.db, m.id)).toMatchObject({
        available: FUNDS - PAYABLE,
        frozen: PAYABLE,
      });
    }
    const again = await applyFor(members[0]!.token, offeringId);
    expect(again.http).toBe(409);
    expect(again.body.msg).toBe('ipoAlreadyApplied');

    const unpaid = await applyFor(poor.token, offeringId);
    expect(unpaid.body.data.status).toBe('unpaid');
    expect(unpaid.body.data.payable).toBe(true);
    const refused = await h.call('ipo/pay', { applicationId: unpaid.body.data.id }, poor.token, idem());
    expect(refused.body.msg).toBe('insufficientBalance');
    // Another member cannot pay (or see) it.
    const other = await h.call('ipo/pay', { applicationId: unpaid.body.data.id }, members[0]!.token, idem());
    expect(other.body.msg).toBe('ipoNotFound');
    await clean();
  });

  it('deduction day: the unpaid application is waived, NT$20 kept from each qualified one', async () => {
    expect(await advance(2)).toBe(0);
    const late = await applyFor((await h.fundedMember('0910000008', FUNDS)) as string, offeringId);
    expect(late.body.status).toBe(1); // day 3 is still an apply day
    const lateId = await h.userId('0910000008');
    members.push({ token: '', id: lateId });
    expect(await advance(1)).toBe(1);
    const closed = await applyFor(members[0]!.token, offeringId);
    expect(closed.body.msg).toBe('ipoNotOpen');
    const [waived] = await h.database.db
      .select()
      .from(ipoApplications)
      .where(eq(ipoApplications.userId, poor.id));
    expect(waived!.status).toBe('waived');
    expect(await memberBalances(h.database.db, poor.id)).toMatchObject({ available: 5_000_000, frozen: 0 });
    for (const m of members)
      expect(await memberBalances(h.database.db, m.id)).toMatchObject({ frozen: PAYABLE - 2_000 });
    expect((await platformBalance(h.database.db, 'fee_revenue')) - feeBefore).toBe(5 * 2_000);
    const draw = await ok('ipo/draw', { id: offeringId }, members[0]!.token);
    expect(draw.qualified).toHaveLength(5);
    expect(draw.winners).toEqual([]);
    await clean();
    expect(await h.ipo.run()).toBe(0); // idempotent: nothing more today
  });

  it('draw day: two winners that a re-run of the published draw reproduces; the seed is revealed', async () => {
    expect(await advance(1)).toBe(1);
    const draw = await ok('ipo/draw', { id: offeringId }, members[0]!.token);
    expect(draw.oversubscribed).toBe(true);
    expect(draw.winners).toHaveLength(2);
    expect(await drawCommitment(draw.seed)).toBe(draw.commitment);
    expect(await drawWinners(draw.seed, draw.qualified, draw.units)).toEqual(draw.winners);
    const rows = await h.database.db
      .select()
      .from(ipoApplications)
      .where(eq(ipoApplications.offeringId, offeringId));
    expect(
      rows
        .filter((a) => a.status === 'won')
        .map((a) => a.applicationNo)
        .sort(),
    ).toEqual([...draw.winners].sort());
    expect(rows.filter((a) => a.status === 'notWon')).toHaveLength(3);
    await clean();
  });

  it('refund day: non-winners get NT$100,050 back, winners pay the NT$50 notification fee', async () => {
    expect(await advance(1)).toBe(1);
    const rows = await h.database.db
      .select()
      .from(ipoApplications)
      .where(eq(ipoApplications.offeringId, offeringId));
    for (const a of rows) {
      const bal = await memberBalances(h.database.db, a.userId);
      if (a.status === 'notWon') {
        expect(a.refundedMinor).toBe(10_005_000);
        expect(bal).toMatchObject({ available: FUNDS - 2_000, frozen: 0 });
      } else if (a.status === 'won') {
        expect(bal).toMatchObject({ available: FUNDS - PAYABLE, frozen: 10_000_000 });
      }
    }
    expect((await platformBalance(h.database.db, 'fee_revenue')) - feeBefore).toBe(5 * 2_000 + 2 * 5_000);
    const records = await ok('ipo/records', {}, members[0]!.token);
    expect(records.items[0]).toMatchObject({ offeringId, nameEn: 'TSMC' });
    await clean();
  });

  it('listing day: each winner holds 1,000 shares long at the offer price, no leverage; sellable the next day', async () => {
    expect(await advance(3)).toBe(0); // listing is draw day + 5
    expect(await advance(1)).toBe(1);
    const won = await h.database.db
      .select()
      .from(ipoApplications)
      .where(eq(ipoApplications.status, 'subscribed'));
    expect(won.filter((a) => a.offeringId === offeringId)).toHaveLength(2);
    for (const a of won) {
      const [o] = await h.database.db.select().from(orders).where(eq(orders.id, a.orderId!));
      expect(o).toMatchObject({
        userId: a.userId,
        symbol: '2330',
        side: 'long',
        leverage: 1,
        shares: 1000,
        status: 'holding',
        openPriceMinor: 10_000,
        marginMinor: 10_000_000,
        openFeeMinor: 0,
      });
      expect(await memberBalances(h.database.db, a.userId)).toMatchObject({
        available: FUNDS - PAYABLE,
        frozen: 0,
        margin: 10_000_000,
      });
    }
    await clean();
    // Two winners, at most one of them the member kept without a token: the other sells.
    const sold = won.find((a) => members.some((m) => m.id === a.userId && m.token))!;
    const winner = members.find((m) => m.id === sold.userId)!;
    const holdings = await ok('trade/orders', { tab: 'holdings' }, winner.token);
    expect(holdings.items.map((o: { id: number }) => o.id)).toContain(sold.orderId);
    await advance(1);
    const closed = await h.call('trade/closePosition', { orderId: sold.orderId }, winner.token);
    expect(closed.body.status).toBe(1);
    await h.trading.idle();
    await clean();
  });
});

describe('undersubscribed public subscription', () => {
  it('every qualified application wins without a draw', async () => {
    const id = await newOffering('test:under', 10_000);
    const a = await h.fundedMember('0920000001', FUNDS);
    const b = await h.fundedMember('0920000002', FUNDS);
    expect((await applyFor(a, id)).body.status).toBe(1);
    expect((await applyFor(b, id)).body.status).toBe(1);
    await advance(4);
    const draw = await ok('ipo/draw', { id }, a);
    expect(draw.oversubscribed).toBe(false);
    expect([...draw.winners].sort()).toEqual([...draw.qualified].sort());
    expect(draw.winners).toHaveLength(2);
    const detail = await ok('ipo/detail', { id }, a);
    expect(detail.application.status).toBe('won');
    expect(detail.application.wonUnits).toBe(1);
    await clean();
  });
});

describe('one application per member', () => {
  it('50 concurrent applications from one member to one offering: exactly one', async () => {
    const id = await newOffering('test:concurrent', 2000);
    const token = await h.fundedMember('0930000001', FUNDS);
    const uid = await h.userId('0930000001');
    const answers = await Promise.all(Array.from({ length: 50 }, () => applyFor(token, id)));
    expect(answers.filter((r) => r.body.status === 1)).toHaveLength(1);
    expect(answers.filter((r) => r.body.msg === 'ipoAlreadyApplied')).toHaveLength(49);
    const rows = await h.database.db.select().from(ipoApplications).where(eq(ipoApplications.userId, uid));
    expect(rows).toHaveLength(1);
    expect(await memberBalances(h.database.db, uid)).toMatchObject({
      available: FUNDS - PAYABLE,
      frozen: PAYABLE,
    });
    await clean();
  });
});

describe('money held at apply never overdraws', () => {
  it('concurrent applications of one member to several offerings hold only what is available', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map((i) => newOffering(`test:overdraw:${i}`, 2000)));
    const token = await h.fundedMember('0930000002', 2 * PAYABLE + 1_000);
    const uid = await h.userId('0930000002');
    const answers = await Promise.all(ids.map((id) => applyFor(token, id)));
    expect(answers.every((r) => r.body.status === 1)).toBe(true);
    const statuses = answers.map((r) => r.body.data.status as string).sort();
    expect(statuses).toEqual(['unpaid', 'unpaid', 'unpaid', 'waitingDraw', 'waitingDraw']);
    expect(await memberBalances(h.database.db, uid)).toMatchObject({ available: 1_000, frozen: 2 * PAYABLE });
    await clean();
  });
});

describe('a step that fails half-way', () => {
  it('is rolled back whole and runs once on the next run: no holding skipped or doubled', async () => {
    const id = await newOffering('test:crash', 2000);
    const tokens = [await h.fundedMember('0960000001', FUNDS), await h.fundedMember('0960000002', FUNDS)];
    for (const t of tokens) expect((await applyFor(t, id)).body.status).toBe(1);
    const [o] = await h.database.db.select().from(ipoOfferings).where(eq(ipoOfferings.id, id));
    await advance(o!.listingDay - today() - 1);
    const [before] = await h.database.db.select().from(ipoOfferings).where(eq(ipoOfferings.id, id));
    expect(before!.stage).toBe('refunded');
    // The listing step dies after delivering the first winner (the label of the second throws).
    let labels = 0;
    const dying = {
      today: () => o!.listingDay,
      label: () => {
        if (++labels === 2) throw new Error('process killed');
        return '2025-04-30';
      },
      now: () => Date.now(),
    };
    await expect(runDue(h.database.db, dying)).rejects.toThrow('process killed');
    const held = () => h.database.db.select().from(ipoApplications).where(eq(ipoApplications.offeringId, id));
    expect((await held()).map((a) => a.status)).toEqual(['won', 'won']);
    expect((await held()).every((a) => a.orderId === null)).toBe(true);
    const [after] = await h.database.db.select().from(ipoOfferings).where(eq(ipoOfferings.id, id));
    expect(after!.stage).toBe('refunded');
    await clean();
    // The restarted runner delivers both, once (other offerings' steps fall due too).
    await advance(1);
    expect(await h.ipo.run()).toBe(0);
    const rows = await held();
    expect(rows.map((a) => a.status)).toEqual(['subscribed', 'subscribed']);
    for (const a of rows) {
      const mine = await h.database.db.select().from(orders).where(eq(orders.userId, a.userId));
      expect(mine).toHaveLength(1);
    }
    await clean();
  });
});
