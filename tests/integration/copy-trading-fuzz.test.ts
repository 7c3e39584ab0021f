/**
 * Model-based fuzz of copy trading (seeded, reproducible): random mentor orders (symbol, side,
 * lots, leverage) and closes, market time moving the quotes, and follower actions (follow, pause,
 * resume, stop), each step followed by a mirroring pass. A model kept by the test says which
 * copies each follower must hold: a mentor order holding at a pass is copied to every running,
 * unpaused follow in floor(mentor lots × allocation ÷ mentor equity before the pass) lots, unless
 * that is 0 (recorded zeroLots) or the follow cannot pay (recorded margin); a mentor close or a
 * stop removes them. After every step: each follower's holding orders equal the model's copies,
 * every (mentor order, follow) pair the pass saw has exactly one record, no balance is negative,
 * the ledger reconciles, each follow account equals the sum of its follows' cash, each follow's
 * cash equals amount + realised − profit share − its open copies' cost, each closed copy's P&L is
 * its order's net P&L, and the mentor's rebates equal the shares the follows recorded.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followCopies, follows, mentors, orders } from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { idem, startHarness, TEST_SYMBOLS, type Harness } from './harness';
import { seeded } from './support/random';
import { advanceMarket } from './trading-support';

const SEED = 20_261_125;
const STEPS = 60;
const NT = 100;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(async () => {
  await h?.close();
});

interface Member {
  token: string;
  id: number;
}
interface ModelFollow {
  id: number;
  member: Member;
  amountMinor: number;
  paused: boolean;
  running: boolean;
  /** Mentor orders with a greater id are copied (follows.since_order_id). */
  sinceOrderId: number;
}

/** The model's lots, computed here (not with the server's function): floor(L × A ÷ E). */
const modelLots = (lots: number, allocationMinor: number, equityMinor: number): number =>
  equityMinor > 0 ? Number((BigInt(lots) * BigInt(allocationMinor)) / BigInt(equityMinor)) : 0;

const rowsOf = <T>(r: unknown): T[] => (r as { rows?: T[] }).rows ?? (r as T[]);

describe('copy trading against a model', () => {
  it(`${STEPS} random steps keep the followers' positions equal to the model's`, async () => {
    const rnd = seeded(SEED);
    const db = h.database.db;
    const call = async (name: Parameters<Harness['call']>[0], body: unknown, token: string, headers = {}) =>
      (await h.call(name, body, token, headers)).body;
    const equityOf = async (id: number) => {
      const b = await memberBalances(db, id);
      return b.available + b.frozen + b.margin + b.debt;
    };

    const mentorToken = await h.fundedMember('0921000001', 2_000_000 * NT);
    const mentor: Member = { token: mentorToken, id: await h.userId('0921000001') };
    // Approved directly: the admission rules are copy-trading.test.ts's.
    const [m] = await db
      .insert(mentors)
      .values({ userId: mentor.id, status: 'approved', minFollowMinor: 10_000 * NT, profitShareBps: 1_000 })
      .returning();

    const model: ModelFollow[] = [];
    /** Expected open copies: `${mentorOrderId}:${followId}` → lots. */
    const expected = new Map<string, { followId: number; symbol: string; side: string; lots: number }>();
    let nextAccount = 2;
    const follow = async (amountNt: number) => {
      const account = `09210000${String(nextAccount++).padStart(2, '0')}`;
      const token = await h.fundedMember(account, (amountNt + 50_000) * NT);
      const member = { token, id: await h.userId(account) };
      const r = await call(
        'follow/start',
        { mentorId: m!.id, amountMinor: amountNt * NT, days: 30 },
        token,
        idem(),
      );
      expect(r.status).toBe(1);
      model.push({
        id: r.data.id,
        member,
        amountMinor: amountNt * NT,
        paused: false,
        running: true,
        sinceOrderId: (await db.select().from(follows).where(eq(follows.id, r.data.id)))[0]!.sinceOrderId,
      });
    };
    for (const amount of [900_000, 400_000, 150_000, 30_000]) await follow(amount);

    const counts = {
      open: 0,
      close: 0,
      copied: 0,
      zeroLots: 0,
      margin: 0,
      paused: 0,
      stops: 0,
      stopLoss: 0,
      liquidation: 0,
    };

    const pass = async () => {
      const equity = await equityOf(mentor.id);
      const statusBefore = new Map(
        (await db.select({ id: followCopies.id, status: followCopies.status }).from(followCopies)).map(
          (r) => [r.id, r.status] as const,
        ),
      );
      const before = new Set(statusBefore.keys());
      const holding = await db
        .select()
        .from(orders)
        .where(sql`${orders.userId} = ${mentor.id} and ${orders.status} = 'holding'`);
      await h.copyTrading.runOnce();
      // A mentor order closed by any means (the mentor, or the risk monitor's liquidation) closes
      // its copies.
      const mentorOpen = new Set(
        (
          await db
            .select({ id: orders.id })
            .from(orders)
            .where(sql`${orders.userId} = ${mentor.id} and ${orders.status} = 'holding'`)
        ).map((o) => o.id),
      );
      for (const k of [...expected.keys()]) if (!mentorOpen.has(Number(k.split(':')[0]))) expected.delete(k);
      const fresh = (await db.select().from(followCopies)).filter((r) => !before.has(r.id));
      for (const r of fresh) {
        const f = model.find((x) => x.id === r.followId)!;
        if (r.reason === 'mentorClosedFirst') {
          // Opened and closed (e.g. liquidated) between two passes: recorded, not copied.
          const [gone] = await db.select().from(orders).where(eq(orders.id, r.mentorOrderId));
          expect(gone!.status).toBe('closed');
          continue;
        }
        const mo = holding.find((o) => o.id === r.mentorOrderId)!;
        expect(mo, 'a record for a mentor order holding at the pass').toBeDefined();
        expect(r.mentorEquityMinor).toBe(equity);
        expect(r.allocationMinor).toBe(f.amountMinor);
        expect(r.lots).toBe(modelLots(mo.lots, f.amountMinor, equity));
        if (f.paused) {
          expect(r).toMatchObject({ status: 'skipped', reason: 'paused' });
          counts.paused++;
        } else if (r.lots === 0) {
          expect(r).toMatchObject({ status: 'skipped', reason: 'zeroLots' });
          counts.zeroLots++;
        } else if (r.status === 'skipped') {
          expect(r.reason).toBe('margin');
          counts.margin++;
        } else {
          expect(r.status).toBe('open');
          expected.set(`${r.mentorOrderId}:${r.followId}`, {
            followId: r.followId,
            symbol: mo.symbol,
            side: mo.side,
            lots: r.lots,
          });
          counts.copied++;
        }
      }
      // Closes the model does not decide: the copy stop-loss (all of the follow's copies at once,
      // in the pass) and a copy liquidated by the risk monitor (settled in the liquidation's own
      // transaction, at any time), each recorded with its order's close reason.
      const after = await db.select().from(followCopies);
      for (const r of after) {
        const key = `${r.mentorOrderId}:${r.followId}`;
        if (r.status !== 'closed' || !expected.has(key)) continue;
        const [o] = await db.select().from(orders).where(eq(orders.id, r.orderId!));
        if (r.reason === 'stopLoss') {
          expect(statusBefore.get(r.id)).toBe('open');
          counts.stopLoss++;
          expect(o!.closeReason).toBe('copyStopLoss');
          expect(after.filter((x) => x.followId === r.followId && x.status === 'open')).toEqual([]);
        } else if (r.reason === 'liquidation') {
          counts.liquidation++;
          expect(o!.closeReason).toBe('liquidation');
        } else continue;
        expected.delete(key);
      }
      // Every running follow has exactly one record of every mentor order holding at the pass
      // that opened after it started: nothing is silently dropped, nothing copied twice.
      const all = await db.select().from(followCopies);
      for (const mo of holding)
        for (const f of model.filter((x) => x.running && mo.id > x.sinceOrderId))
          expect(all.filter((r) => r.mentorOrderId === mo.id && r.followId === f.id)).toHaveLength(1);
    };

    const check = async () => {
      for (const f of model) {
        const held = await db
          .select()
          .from(orders)
          .where(sql`${orders.userId} = ${f.member.id} and ${orders.status} = 'holding'`);
        const got = held.map((o) => `${o.symbol}/${o.side}/${o.lots}`).sort();
        const want = [...expected.values()]
          .filter((e) => e.followId === f.id)
          .map((e) => `${e.symbol}/${e.side}/${e.lots}`)
          .sort();
        expect(got, `follow ${f.id}`).toEqual(want);
      }
      const r = await reconcile(db);
      expect(isClean(r)).toBe(true);
      const accounts = rowsOf<{ balance: string; cash: string }>(
        await db.execute(sql`
          select a.balance_minor as balance,
            (select coalesce(sum(f.cash_minor), 0) from follows f where f.user_id = a.user_id) as cash
          from ledger_accounts a where a.purpose = 'follow'`),
      );
      for (const a of accounts) expect(Number(a.balance)).toBe(Number(a.cash));
      // Each follow's pool adds up: cash = amount + realised − profit share − what its open copies
      // took + their cash flows; each closed copy's P&L is its order's net (the follow could pay
      // every loss here); the mentor received exactly the shares recorded.
      const fs = await db.select().from(follows);
      const copies = await db.select().from(followCopies);
      let shares = 0;
      for (const f of fs) {
        shares += f.profitShareMinor;
        let held = 0;
        for (const c of copies.filter((x) => x.followId === f.id && x.orderId !== null)) {
          const [o] = await db.select().from(orders).where(eq(orders.id, c.orderId!));
          if (c.status === 'open')
            held += o!.marginMinor + o!.openFeeMinor + o!.openTaxMinor - c.cashFlowMinor;
          else
            expect(c.pnlMinor, `copy ${c.id}`).toBe(
              o!.pnlMinor! -
                o!.openFeeMinor -
                o!.openTaxMinor -
                o!.closeFeeMinor -
                o!.closeTaxMinor +
                c.cashFlowMinor,
            );
        }
        const settled = f.amountMinor + f.realisedMinor - f.profitShareMinor;
        if (f.status === 'following') expect(f.cashMinor, `follow ${f.id}`).toBe(settled - held);
        else expect(f.returnedMinor, `follow ${f.id}`).toBe(settled);
      }
      const rebates = rowsOf<{ s: string }>(
        await db.execute(sql`
          select coalesce(sum(p.amount_minor), 0) as s from ledger_postings p
          join ledger_transactions t on t.id = p.transaction_id
          join ledger_accounts a on a.id = p.account_id
          where t.type = 'followRebate' and a.user_id = ${mentor.id}`),
      );
      expect(Number(rebates[0]!.s)).toBe(shares);
      const negative = rowsOf<{ n: string }>(
        await db.execute(
          sql`select count(*) as n from ledger_accounts where not allow_negative and balance_minor < 0`,
        ),
      );
      expect(Number(negative[0]!.n)).toBe(0);
    };

    for (let step = 0; step < STEPS; step++) {
      const r = rnd.next();
      if (r < 0.35) {
        const body = {
          symbol: rnd.pick(TEST_SYMBOLS),
          side: rnd.pick(['long', 'short'] as const),
          orderType: 'market',
          lots: 1 + rnd.int(10),
          leverage: rnd.pick([2, 5, 10]),
        };
        if ((await call('trade/placeOrder', body, mentor.token, idem())).status === 1) counts.open++;
      } else if (r < 0.6) {
        const open = await db
          .select()
          .from(orders)
          .where(sql`${orders.userId} = ${mentor.id} and ${orders.status} = 'holding'`);
        if (open.length > 0) {
          const o = rnd.pick(open);
          const res = await call('trade/closePosition', { orderId: o.id }, mentor.token, idem());
          expect(res.status).toBe(1);
          counts.close++;
          for (const k of [...expected.keys()]) if (k.startsWith(`${o.id}:`)) expected.delete(k);
        }
      } else if (r < 0.72) {
        const f = rnd.pick(model.filter((x) => x.running));
        const res = await call(
          f.paused ? 'follow/resume' : 'follow/pause',
          { followId: f.id },
          f.member.token,
        );
        expect(res.status).toBe(1);
        f.paused = !f.paused;
      } else if (r < 0.78 && model.filter((x) => x.running).length > 2) {
        const f = rnd.pick(model.filter((x) => x.running));
        const before = (await memberBalances(db, f.member.id)).available;
        const res = await call('follow/stop', { followId: f.id }, f.member.token, idem());
        expect(res.status).toBe(1);
        expect(res.data.status).toBe('ended');
        expect((await memberBalances(db, f.member.id)).available).toBe(before + res.data.returnedMinor);
        f.running = false;
        counts.stops++;
        for (const [k, e] of [...expected]) if (e.followId === f.id) expected.delete(k);
        const [row] = await db.select().from(follows).where(eq(follows.id, f.id));
        expect(row!.cashMinor).toBe(0);
      } else if (r < 0.82) {
        await follow(20_000 + rnd.int(700) * 1_000);
      } else {
        await advanceMarket(h, (1 + rnd.int(2)) * 60_000);
      }
      await pass();
      await check();
    }
    // The run exercised every path the model knows.
    expect(counts.open).toBeGreaterThan(5);
    expect(counts.close).toBeGreaterThan(3);
    expect(counts.copied).toBeGreaterThan(5);
    expect(counts.zeroLots).toBeGreaterThan(0);
    expect(counts.paused).toBeGreaterThan(0);
    expect(counts.stops).toBeGreaterThan(0);
  }, 300_000);
});
