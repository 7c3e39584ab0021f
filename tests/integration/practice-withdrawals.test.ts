/**
 * A replayed market is a practice venue (server/modules/funds/practice.ts,
 * docs/adr/0003-practice-venue-withdrawals.md), end to end through the HTTP API on the harness's
 * replayed market (MARKET_SOURCE=replay; PGlite by default, PostgreSQL with TEST_DB=postgres):
 *
 * - NT$100,000 deposited, a short of 2317 opened at 10:00 of 2025-04-14 and closed at 12:00 for a
 *   gain (143.00 → about 137.00): user/withdrawable says available > 100,000 but withdrawable
 *   100,000; a withdrawal of NT$100,000.01 is refused `aboveNetDeposits` (422, translated in tw
 *   and en) with nothing written (above the available cash: insufficientBalance, as before);
 *   NT$100,000.00 goes through as before (available → frozen), and once paid nothing more can be
 *   withdrawn; a rejected withdrawal gives the cap back;
 * - an exchange moves the cap with the converted amount: TWD → USD moves own money into USD, and
 *   back into TWD at the exchange's own amounts (rounded down);
 * - with REPLAY_WITHDRAWALS=all (a second harness) the gain is withdrawable;
 * - concurrency: bursts of parallel withdrawals and exchanges of one member never take out more
 *   own money than was deposited (the fold in ledger order never goes below zero); and an
 *   exchange racing a withdrawal of the whole cap (cash from a points code above it) never lets
 *   both take the same money. Meaningful on PostgreSQL, where the requests run in parallel
 *   transactions: without the member lock (practice.ts lockMemberFunds) the race test fails there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { mulDivFloor } from '../../contract/money';
import { fundEvents } from '../../server/modules/funds/practice';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { FUNDS_PASSWORD, idem, startHarness, type Harness } from './harness';
import { replayTo } from './trading-support';
import { seeded } from './support/random';

const DEPOSIT = 10_000_000; // NT$100,000
const MIN = 100_000; // NT$1,000: the site's minimum withdrawal (default)

type Member = { token: string; userId: number; cardId: number };

const withdraw = (h: Harness, m: Member, amountMinor: number) =>
  h.call('user/withdraw', { amountMinor, fundsPassword: FUNDS_PASSWORD, cardId: m.cardId }, m.token, idem());

async function ok(h: Harness, name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token, idem());
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

async function clean(h: Harness) {
  expect(isClean(await reconcile(h.database.db))).toBe(true);
}

/** A 1-lot 5× short of 2317 at 10:00 closed at 12:00 (the replayed 2025-04-14 falls). Returns the gross. */
async function gainOnATrade(h: Harness, m: Member): Promise<number> {
  const o = await ok(
    h,
    'trade/placeOrder',
    { symbol: '2317', side: 'short', orderType: 'market', lots: 1, leverage: 5 },
    m.token,
  );
  expect(o.status).toBe('holding');
  await replayTo(h, 12, 0);
  const closed = await ok(h, 'trade/closePosition', { orderId: o.id }, m.token);
  expect(closed.status).toBe('closed');
  return closed.pnlMinor as number;
}

describe('on a replayed market (the default rule)', () => {
  let h: Harness;
  let op: string;
  let m: Member;

  beforeAll(async () => {
    h = await startHarness();
    op = await h.operatorToken();
    m = await h.withdrawer('0951000001', DEPOSIT);
  });
  afterAll(async () => h?.close());

  it('a gain made on the replay is not withdrawable; the refusal is translated', async () => {
    const gross = await gainOnATrade(h, m);
    const { available } = await memberBalances(h.database.db, m.userId);
    expect(gross).toBeGreaterThan(0);
    expect(available).toBeGreaterThan(DEPOSIT); // a net gain after fees and tax
    expect(await ok(h, 'user/withdrawable', {}, m.token)).toEqual({
      currency: 'TWD',
      rule: 'netDeposits',
      practice: true,
      availableMinor: available,
      netDepositsMinor: DEPOSIT,
      withdrawableMinor: DEPOSIT,
    });

    const before = await h.moneyState();
    const r = await withdraw(h, m, DEPOSIT + 1);
    expect(r.http).toBe(422);
    expect(r.body).toEqual({ status: 0, msg: 'aboveNetDeposits', data: null });
    expect(await h.moneyState()).toEqual(before);
    // Above the cash itself the answer stays the more basic one.
    expect((await withdraw(h, m, available + 1)).body.msg).toBe('insufficientBalance');
    expect(await h.moneyState()).toEqual(before);
    for (const lang of ['tw', 'en']) {
      const text = JSON.parse(readFileSync(`locales/${lang}.json`, 'utf8')).errors.aboveNetDeposits as string;
      expect(text.length).toBeGreaterThan(20);
    }
  });

  it('a withdrawal within the net deposits works as before; a rejection gives the cap back', async () => {
    const { available } = await memberBalances(h.database.db, m.userId);
    const first = await withdraw(h, m, DEPOSIT);
    expect(first.body.data, JSON.stringify(first.body)).toMatchObject({
      amountMinor: DEPOSIT,
      status: 'pending',
    });
    expect(await memberBalances(h.database.db, m.userId)).toMatchObject({
      available: available - DEPOSIT,
      frozen: DEPOSIT,
    });
    // While it is pending it counts: nothing else is withdrawable.
    expect((await ok(h, 'user/withdrawable', {}, m.token)).withdrawableMinor).toBe(0);
    await ok(h, 'admin/rejectWithdrawal', { id: first.body.data.id, reason: 'cap test' }, op);
    expect((await ok(h, 'user/withdrawable', {}, m.token)).withdrawableMinor).toBe(DEPOSIT);

    const paid = await withdraw(h, m, DEPOSIT);
    expect(paid.body.status).toBe(1);
    await ok(h, 'admin/approveWithdrawal', { id: paid.body.data.id }, op);
    const after = await ok(h, 'user/withdrawable', {}, m.token);
    expect(after).toMatchObject({ netDepositsMinor: 0, withdrawableMinor: 0 });
    expect(after.availableMinor).toBe(available - DEPOSIT); // the gain, still in the account
    const before = await h.moneyState();
    expect((await withdraw(h, m, MIN)).body.msg).toBe('aboveNetDeposits');
    expect(await h.moneyState()).toEqual(before);
    await clean(h);
  });

  it('an exchange moves the cap with the converted amount, both ways', async () => {
    const x = await h.withdrawer('0951000002', DEPOSIT);
    // NT$1,000 that is not a deposit (a cash points code), so the cap, not the cash, refuses below.
    const batch = await ok(
      h,
      'admin/createPointsCodes',
      { kind: 'cash', amount: 100_000, expiresAt: h.wall.now + 86_400_000, count: 1, perMemberLimit: 1 },
      op,
    );
    await ok(h, 'rewards/redeemCode', { code: batch.codes[0] }, x.token);
    expect((await ok(h, 'user/withdrawable', {}, x.token)).netDepositsMinor).toBe(DEPOSIT);
    const toUsd = await ok(h, 'user/exchange', { from: 'TWD', to: 'USD', amountMinor: 4_000_000 }, x.token);
    // 40,000 of own TWD left as USD: the TWD cap is 60,000.
    expect((await ok(h, 'user/withdrawable', {}, x.token)).netDepositsMinor).toBe(DEPOSIT - 4_000_000);
    const back = await ok(
      h,
      'user/exchange',
      { from: 'USD', to: 'TWD', amountMinor: toUsd.toMinor as number },
      x.token,
    );
    // All of that USD was own money: what came back is own money (less the spread).
    const cap = DEPOSIT - 4_000_000 + (back.toMinor as number);
    expect((await ok(h, 'user/withdrawable', {}, x.token)).netDepositsMinor).toBe(cap);
    expect(cap).toBeLessThan(DEPOSIT);
    expect((await withdraw(h, x, cap + 1)).body.msg).toBe('aboveNetDeposits');
    expect((await withdraw(h, x, cap)).body.status).toBe(1);
    await clean(h);
  });
});

describe('with REPLAY_WITHDRAWALS=all (the operator opted in)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ replayWithdrawals: 'all' });
  });
  afterAll(async () => h?.close());

  it('the gain is withdrawable', async () => {
    const m = await h.withdrawer('0952000001', DEPOSIT);
    await gainOnATrade(h, m);
    const { available } = await memberBalances(h.database.db, m.userId);
    expect(available).toBeGreaterThan(DEPOSIT);
    expect(await ok(h, 'user/withdrawable', {}, m.token)).toMatchObject({
      rule: 'all',
      practice: true,
      netDepositsMinor: DEPOSIT,
      withdrawableMinor: available,
    });
    const r = await withdraw(h, m, available);
    expect(r.body.data, JSON.stringify(r.body)).toMatchObject({ amountMinor: available, status: 'pending' });
    await clean(h);
  });
});

describe('concurrent withdrawals and exchanges of one member', () => {
  let h: Harness;
  let op: string;

  beforeAll(async () => {
    h = await startHarness();
    op = await h.operatorToken();
  });
  afterAll(async () => h?.close());

  /** Own TWD money after each event, the withdrawals not clamped: never below zero if the cap held. */
  async function lowestOwnMoney(userId: number): Promise<number> {
    const own = new Map<string, number>();
    const get = (c: string) => own.get(c) ?? 0;
    let lowest = Number.POSITIVE_INFINITY;
    for (const e of await fundEvents(h.database.db, userId)) {
      if (e.kind === 'deposit') own.set(e.currency, get(e.currency) + e.amountMinor);
      else if (e.kind === 'withdrawal') {
        own.set(e.currency, get(e.currency) - e.amountMinor);
        lowest = Math.min(lowest, get(e.currency));
      } else {
        const part = Math.min(e.amountMinor, Math.max(0, get(e.currency)));
        own.set(e.currency, get(e.currency) - part);
        own.set(e.toCurrency, get(e.toCurrency) + mulDivFloor(e.toMinor, part, e.amountMinor));
      }
    }
    return lowest;
  }

  it('never take out more own money than was deposited', async () => {
    const m = await h.withdrawer('0953000001', DEPOSIT);
    await gainOnATrade(h, m); // available above the cap, so only the cap can refuse
    const rng = seeded(3030);
    let accepted = 0;
    for (let round = 0; round < 6; round++) {
      const cap = (await ok(h, 'user/withdrawable', {}, m.token)).netDepositsMinor as number;
      const requests: Array<() => ReturnType<typeof withdraw>> = [];
      for (let i = 0; i < 16; i++) {
        // Amounts around the cap: some within it, some above; whole NT$1,000 steps.
        const amount = Math.max(MIN, (1 + rng.int(Math.max(1, Math.ceil((cap * 1.4) / MIN)))) * MIN);
        requests.push(() => withdraw(h, m, amount));
      }
      for (let i = 0; i < 4; i++) {
        const amount = (1 + rng.int(20)) * MIN;
        requests.push(() =>
          h.call('user/exchange', { from: 'TWD', to: 'USD', amountMinor: amount }, m.token, idem()),
        );
      }
      const answers = await Promise.all(requests.map((run) => run()));
      const bad = answers.filter(
        (a) =>
          a.body.status !== 1 &&
          !['aboveNetDeposits', 'otherFundOperation', 'insufficientBalance'].includes(a.body.msg),
      );
      expect(bad.map((a) => `${a.http} ${JSON.stringify(a.body)}`)).toEqual([]);
      expect(await lowestOwnMoney(m.userId)).toBeGreaterThanOrEqual(0);
      const won = answers.filter((a, i) => i < 16 && a.body.status === 1);
      expect(won.length).toBeLessThanOrEqual(1);
      accepted += won.length;
      // Pay the winner (or give it back), so the next round starts with no withdrawal pending.
      for (const w of won)
        await ok(
          h,
          round % 2 ? 'admin/approveWithdrawal' : 'admin/rejectWithdrawal',
          round % 2 ? { id: w.body.data.id } : { id: w.body.data.id, reason: 'race' },
          op,
        );
      await clean(h);
    }
    expect(accepted).toBeGreaterThan(0);
    // Money out never exceeded money in, and what is left of the cap is what the fold says.
    expect(await lowestOwnMoney(m.userId)).toBeGreaterThanOrEqual(0);
  });

  it('an exchange racing a withdrawal of the whole cap never lets both take the same money', async () => {
    const m = await h.withdrawer('0953000002', 10 * DEPOSIT); // NT$1,000,000
    // NT$1,000,000 more that is not a deposit (a cash points code, a promotion), so available
    // stays above the cap and only the cap can refuse the withdrawal.
    const batch = await ok(
      h,
      'admin/createPointsCodes',
      { kind: 'cash', amount: 100_000_000, expiresAt: h.wall.now + 86_400_000, count: 1, perMemberLimit: 1 },
      op,
    );
    await ok(h, 'rewards/redeemCode', { code: batch.codes[0] }, m.token);
    expect((await ok(h, 'user/withdrawable', {}, m.token)).netDepositsMinor).toBe(10 * DEPOSIT);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let withdrawn = 0;
    let exchanged = 0;
    for (let round = 0; round < 12; round++) {
      const cap = (await ok(h, 'user/withdrawable', {}, m.token)).netDepositsMinor as number;
      // The withdrawal asks for all of the cap; exchanges of own TWD start around it, later in
      // each round (the withdrawal first checks the funds password, so its transaction starts
      // some tens of milliseconds after the request): some rounds the exchanges go first, some
      // the withdrawal.
      const answers = await Promise.all([
        withdraw(h, m, cap),
        ...Array.from({ length: 12 }, (_, i) =>
          sleep(round * 25 + i * 10).then(() =>
            h.call('user/exchange', { from: 'TWD', to: 'USD', amountMinor: MIN }, m.token, idem()),
          ),
        ),
      ]);
      expect(await lowestOwnMoney(m.userId), `round ${round}`).toBeGreaterThanOrEqual(0);
      const [w, ...x] = answers;
      exchanged += x.filter((a) => a.body.status === 1).length;
      if (w!.body.status === 1) {
        withdrawn++;
        await ok(h, 'admin/rejectWithdrawal', { id: w!.body.data.id, reason: 'race' }, op);
      } else expect(w!.body.msg).toBe('aboveNetDeposits');
      expect(x.filter((a) => a.body.status !== 1).map((a) => a.body.msg)).toEqual([]);
    }
    // Both kinds really ran: the race was exercised.
    expect(withdrawn).toBeGreaterThan(0);
    expect(exchanged).toBeGreaterThan(0);
    await clean(h);
  });
});
