/**
 * Asset overview and invite friends through the HTTP API on the harness's manual market clock
 * (PGlite by default, PostgreSQL with TEST_DB=postgres).
 * - Property (fast-check, fixed seed): after a random sequence of deposits, exchanges, orders,
 *   closes, withdrawals (requested, approved or rejected) and clock steps, wallet/overview equals
 *   the ledger per currency and kind, its unrealised P&L equals the positions marked to the feed,
 *   its TWD total values USD at the TWD buying rate, and user/info's total assets is the same
 *   number; the ledger reconciles.
 * - Snapshots: running the market past 13:30 writes one snapshot per member and currency for
 *   that trading date, equal to the overview at that close; wallet/history shows it.
 * - Realised P&L by month equals the closed positions' pnl, fees and taxes by month of close.
 * - Invite: a verified member gets a code and link; a registration with it appears (masked) in
 *   the list; an unverified member gets none; the use limit and the expiry are enforced, and a
 *   used-up code is replaced by a fresh one.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unrealisedPnlMinor } from '../../contract/market-rules';
import { convertMinorFloor } from '../../contract/money';
import { TWSE_ZONE } from '../../contract/trading-session';
import { maskAccount } from '../../contract/wallet';
import { dividendCredits, invitationCodes, ledgerAccounts, orders } from '../../server/db/schema';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { dayTimes, quoteDate } from '../../server/modules/trading/market-session';
import { realisedByMonth } from '../../server/modules/wallet/pnl';
import { snapshotsOf } from '../../server/modules/wallet/snapshots';
import { FUNDS_PASSWORD, idem, startHarness, type Harness } from './harness';

let h: Harness;
let op: string;
const SYMBOLS = ['2330', '2317'];

beforeAll(async () => {
  h = await startHarness({ inviteMemberMaxUses: 2, inviteMemberDays: 10 });
  op = await h.operatorToken();
});
afterAll(async () => h.close());

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, headers = {}) {
  const r = await h.call(name, body, token, headers);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** The member's ledger balances: currency → purpose → minor. */
async function ledgerOf(userId: number) {
  const rows = await h.database.db
    .select({ c: ledgerAccounts.currency, p: ledgerAccounts.purpose, b: ledgerAccounts.balanceMinor })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.userId, userId));
  const out = new Map<string, Map<string, number>>();
  for (const r of rows) out.set(r.c, (out.get(r.c) ?? new Map()).set(r.p, r.b));
  return out;
}

/** Unrealised P&L of the member's holdings at the feed's last prices, computed here. */
async function unrealisedOf(userId: number) {
  const held = await h.database.db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'holding')));
  return held.reduce(
    (s, o) => s + unrealisedPnlMinor(o.side, o.openValueMinor!, h.feed.quote(o.symbol)!.lastMinor, o.shares),
    0,
  );
}

/** Asserts the overview equals the ledger and the feed (see the module docstring). */
async function expectReconciled(token: string, userId: number) {
  const ov = await ok('wallet/overview', {}, token);
  const info = await ok('user/info', {}, token);
  const ledger = await ledgerOf(userId);
  const unrealised = await unrealisedOf(userId);
  expect(ov.currencies.map((c: { currency: string }) => c.currency).sort()).toEqual(
    [...ledger.keys()].sort(),
  );
  const rates = await ok('user/rates', {}, token);
  const twdBuy = rates.find((r: { currency: string }) => r.currency === 'TWD').buyPpm as number;
  let total = 0;
  for (const c of ov.currencies) {
    const acc = ledger.get(c.currency)!;
    expect(c.availableMinor).toBe(acc.get('available') ?? 0);
    expect(c.frozenMinor).toBe(acc.get('frozen') ?? 0);
    expect(c.marginMinor).toBe(acc.get('margin') ?? 0);
    expect(c.debtMinor).toBe(acc.get('debt') ?? 0);
    const sum = [...acc.values()].reduce((s, b) => s + b, 0);
    const u = c.currency === 'TWD' ? unrealised : 0;
    expect(c.unrealisedMinor).toBe(u);
    expect(c.totalMinor).toBe(sum + u);
    const value =
      c.currency === 'TWD'
        ? c.totalMinor
        : Math.sign(c.totalMinor) * convertMinorFloor(Math.abs(c.totalMinor), twdBuy, 'fromUsd');
    expect(c.valueTwdMinor).toBe(value);
    total += value;
  }
  expect(ov.totalTwdMinor).toBe(total);
  expect(ov.positions.unrealisedMinor).toBe(unrealised);
  expect(info.totalAssetsMinor).toBe(ov.totalTwdMinor);
  expect(info.usdMinor).toBe(ledger.get('USD')?.get('available') ?? 0);
  expect(isClean(await reconcile(h.database.db))).toBe(true);
  return ov;
}

type Action =
  | { k: 'deposit'; amount: number }
  | { k: 'toUsd'; amount: number }
  | { k: 'toTwd'; amount: number }
  | { k: 'open'; symbol: number; long: boolean; leverage: number }
  | { k: 'close'; pick: number }
  | { k: 'withdraw'; amount: number; approve: boolean | null }
  | { k: 'tick' };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ k: fc.constant('deposit' as const), amount: fc.integer({ min: 100, max: 50_000_000 }) }),
  fc.record({ k: fc.constant('toUsd' as const), amount: fc.integer({ min: 10_000, max: 20_000_000 }) }),
  fc.record({ k: fc.constant('toTwd' as const), amount: fc.integer({ min: 100, max: 500_000 }) }),
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('open' as const),
      symbol: fc.nat(SYMBOLS.length - 1),
      long: fc.boolean(),
      leverage: fc.constantFrom(1, 2, 5),
    }),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('close' as const), pick: fc.nat(20) }) },
  fc.record({
    k: fc.constant('withdraw' as const),
    amount: fc.integer({ min: 10_000, max: 5_000_000 }),
    approve: fc.constantFrom(true, false, null),
  }),
  fc.constant({ k: 'tick' as const }),
);

/** Successful opens and closes across the property's runs (so it cannot pass without trading). */
const done = { open: 0, close: 0 };
let seq = 0;
const nextAccount = () => `0955${String(++seq).padStart(6, '0')}`;

async function runAction(a: Action, who: { token: string; cardId: number }, opened: number[]) {
  switch (a.k) {
    case 'deposit': {
      const id = await h.deposit(who.token, a.amount);
      await ok('admin/approveDeposit', { id }, op);
      return;
    }
    case 'toUsd':
      await h.call('user/exchange', { from: 'TWD', to: 'USD', amountMinor: a.amount }, who.token, idem());
      return;
    case 'toTwd':
      await h.call('user/exchange', { from: 'USD', to: 'TWD', amountMinor: a.amount }, who.token, idem());
      return;
    case 'open': {
      const r = await h.call(
        'trade/placeOrder',
        {
          symbol: SYMBOLS[a.symbol],
          side: a.long ? 'long' : 'short',
          orderType: 'market',
          lots: 1,
          leverage: a.leverage,
        },
        who.token,
      );
      if (r.body.status === 1) opened.push(r.body.data.id);
      done.open += r.body.status === 1 ? 1 : 0;
      return;
    }
    case 'close': {
      if (!opened.length) return;
      const r = await h.call('trade/closePosition', { orderId: opened[a.pick % opened.length] }, who.token);
      done.close += r.body.status === 1 ? 1 : 0;
      return;
    }
    case 'withdraw': {
      const r = await h.call(
        'user/withdraw',
        { amountMinor: a.amount, fundsPassword: FUNDS_PASSWORD, cardId: who.cardId },
        who.token,
        idem(),
      );
      if (r.body.status === 1 && a.approve !== null)
        await ok(
          a.approve ? 'admin/approveWithdrawal' : 'admin/rejectWithdrawal',
          { id: r.body.data.id, ...(a.approve ? {} : { reason: 'test' }) },
          op,
        );
      return;
    }
    case 'tick':
      h.wall.now += 90_000;
      h.feed.tick();
      await h.trading.idle();
  }
}

describe('asset overview', () => {
  it('equals the ledger per currency and kind after random money sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 12 }), async (actions) => {
        const who = await h.withdrawer(nextAccount(), 300_000_000);
        const opened: number[] = [];
        for (const a of actions) {
          await runAction(a, who, opened);
          await expectReconciled(who.token, who.userId);
        }
      }),
      { numRuns: 8, seed: 20_260_101 },
    );
    expect(done.open).toBeGreaterThan(3);
    expect(done.close).toBeGreaterThan(1);
  });

  it('snapshots every member at the trading day close; history shows it', async () => {
    const who = await h.withdrawer(nextAccount(), 300_000_000);
    await ok('user/exchange', { from: 'TWD', to: 'USD', amountMinor: 3_000_000 }, who.token, idem());
    await ok(
      'trade/placeOrder',
      { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 2 },
      who.token,
    );
    const userId = who.userId;
    const q = h.feed.quote('2330')!;
    const tradeDate = quoteDate(q);
    expect(await snapshotsOf(h.database.db, userId, tradeDate)).toHaveLength(0);
    h.wall.now += dayTimes(tradeDate).regularCloseMs - q.ts + 1_000;
    for (let i = 0; i < 5; i++) {
      h.feed.tick();
      await h.trading.idle();
    }
    await h.services.snapshots.idle();
    const rows = await snapshotsOf(h.database.db, userId, tradeDate);
    const ov = await expectReconciled(who.token, userId);
    expect(rows.map((r) => r.currency).sort()).toEqual(['TWD', 'USD']);
    for (const c of ov.currencies) {
      const r = rows.find((x) => x.currency === c.currency)!;
      expect(r).toMatchObject({
        availableMinor: c.availableMinor,
        frozenMinor: c.frozenMinor,
        marginMinor: c.marginMinor,
        debtMinor: c.debtMinor,
        unrealisedMinor: c.unrealisedMinor,
        totalMinor: c.totalMinor,
        valueTwdMinor: c.valueTwdMinor,
      });
    }
    const hist = await ok('wallet/history', {}, who.token);
    expect(hist.equity).toEqual([{ tradeDate, valueTwdMinor: ov.totalTwdMinor, complete: true }]);
    // Every member with ledger accounts has this date's snapshot (one row per currency held).
    const members = await h.database.db
      .selectDistinct({ u: ledgerAccounts.userId })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.purpose, ['available']));
    const snapped = new Set<number>();
    for (const m of members)
      if (m.u !== null && (await snapshotsOf(h.database.db, m.u, tradeDate)).length) snapped.add(m.u);
    expect(snapped.size).toBeGreaterThan(6);
  });

  it('realised P&L by month equals the closed positions by month of close', async () => {
    const rows = await h.database.db.select().from(orders).where(eq(orders.status, 'closed'));
    expect(rows.length).toBeGreaterThan(0);
    const credits = await h.database.db.select().from(dividendCredits);
    const byUser = new Map<number, typeof rows>();
    for (const o of rows) byUser.set(o.userId, [...(byUser.get(o.userId) ?? []), o]);
    for (const [userId, closed] of byUser) {
      const expected = new Map<string, { closed: number; gross: number; costs: number; income: number }>();
      for (const o of closed) {
        const m = DateTime.fromJSDate(o.closedAt!, { zone: TWSE_ZONE }).toFormat('yyyy-MM');
        const e = expected.get(m) ?? { closed: 0, gross: 0, costs: 0, income: 0 };
        e.closed++;
        e.gross += o.pnlMinor!;
        e.costs -= o.openFeeMinor + o.closeFeeMinor + o.openTaxMinor + o.closeTaxMinor;
        e.income += credits.filter((c) => c.orderId === o.id).reduce((s, c) => s + c.amountMinor, 0);
        expected.set(m, e);
      }
      const months = [...expected]
        .sort((a, b) => (a[0] < b[0] ? 1 : -1))
        .map(([month, e]) => ({
          month,
          closed: e.closed,
          grossMinor: e.gross,
          costsMinor: e.costs,
          incomeMinor: e.income,
          netMinor: e.gross + e.costs + e.income,
        }));
      expect(await realisedByMonth(h.database.db, userId)).toEqual({
        months,
        totalMinor: months.reduce((s, m) => s + m.netMinor, 0),
      });
    }
  });
});

describe('invite friends', () => {
  it('gives a verified member a code whose registrations are listed; none to the unverified', async () => {
    const plain = nextAccount();
    const none = await ok('user/invite', {}, await h.register(plain));
    expect(none).toMatchObject({ eligible: false, code: null, path: null, invitees: [] });
    const owned = await h.database.db
      .select()
      .from(invitationCodes)
      .where(eq(invitationCodes.createdBy, await h.userId(plain)));
    expect(owned).toHaveLength(0);

    const inviter = await h.withdrawer(nextAccount(), 1_000);
    const mine = await ok('user/invite', {}, inviter.token);
    expect(mine).toMatchObject({ eligible: true, maxUses: 2, uses: 0, invitees: [] });
    expect(mine.path).toBe(`/#/login/register?code=${mine.code}`);
    expect(mine.expiresAt).toBe(h.wall.now + 10 * 86_400_000);
    // A second visit shows the same code.
    expect((await ok('user/invite', {}, inviter.token)).code).toBe(mine.code);

    const friend = nextAccount();
    const reg = await h.call('user/register', {
      account: friend,
      password: 'password123',
      confirmPassword: 'password123',
      inviteCode: mine.code,
      agree: true,
    });
    expect(reg.body.status).toBe(1);
    const after = await ok('user/invite', {}, inviter.token);
    expect(after.uses).toBe(1);
    expect(after.invitees).toHaveLength(1);
    expect(after.invitees[0].account).toBe(maskAccount(friend));
    expect(after.invitees[0].account).not.toContain(friend.slice(3, 8));
  });

  it('enforces the use limit and the expiry; a used-up code is not renewed until it expires', async () => {
    const inviter = await h.withdrawer(nextAccount(), 1_000);
    const code = (await ok('user/invite', {}, inviter.token)).code as string;
    const reg = (account: string, inviteCode: string) =>
      h.call('user/register', {
        account,
        password: 'password123',
        confirmPassword: 'password123',
        inviteCode,
        agree: true,
      });
    expect((await reg(nextAccount(), code)).body.status).toBe(1);
    expect((await reg(nextAccount(), code)).body.status).toBe(1);
    const third = await reg(nextAccount(), code);
    expect(third.body.status).not.toBe(1);
    // Used up: the same code, no fresh one (one verified person cannot bring in accounts without end).
    const next = await ok('user/invite', {}, inviter.token);
    expect(next).toMatchObject({ eligible: true, code, uses: 2, maxUses: 2 });
    expect(next.invitees).toHaveLength(2);
    expect((await reg(nextAccount(), next.code)).body.status).not.toBe(1);
    const owned = await h.database.db
      .select()
      .from(invitationCodes)
      .where(eq(invitationCodes.createdBy, inviter.userId));
    expect(owned).toHaveLength(1);

    // Expiry: 10 days on, the code has expired; the next visit issues another.
    h.wall.now += 10 * 86_400_000 + 1;
    const renewed = await ok('user/invite', {}, inviter.token);
    expect(renewed.code).not.toBe(next.code);
    expect((await reg(nextAccount(), renewed.code)).body.status).toBe(1);
    expect((await ok('user/invite', {}, inviter.token)).invitees).toHaveLength(3);
  });

  it('issues no new code after an operator disabled the member’s code', async () => {
    const inviter = await h.withdrawer(nextAccount(), 1_000);
    const code = (await ok('user/invite', {}, inviter.token)).code as string;
    await ok('admin/disableInvitation', { code }, op);
    expect(await ok('user/invite', {}, inviter.token)).toMatchObject({ eligible: false, code: null });
  });
});
