/**
 * Withdrawals end to end (product-spec §3 "Withdrawal", §4, §5 "Withdraw", §6 account flags, §8
 * "Money"): every request rule at its edge with nothing written on a refusal, one pending
 * withdrawal at a time (also under a race), available → frozen on request, payout and return on
 * review with audit entries and no double review, the operator queue, the member's records,
 * idempotency, and a clean ledger after each flow.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bankCards, withdrawals } from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { FUNDS_PASSWORD, idem, startHarness, type Harness } from './harness';

let h: Harness;
let op: string;
let a: { token: string; userId: number; cardId: number };
let b: { token: string; userId: number; cardId: number };

const MIN = 100_000; // NT$1,000 (the defaults, saved explicitly below)
const MAX = 500_000_000;

async function ledgerClean() {
  const r = await reconcile(h.database.db);
  expect(isClean(r), JSON.stringify(r)).toBe(true);
}

const withdraw = (
  who: { token: string; cardId: number },
  amountMinor: number,
  over: Record<string, unknown> = {},
) =>
  h.call(
    'user/withdraw',
    { amountMinor, fundsPassword: FUNDS_PASSWORD, cardId: who.cardId, ...over },
    who.token,
    idem(),
  );

/** Expects a refusal and that no money table changed. */
async function refused(
  who: { token: string; cardId: number },
  amountMinor: number,
  http: number,
  msg: string,
  over: Record<string, unknown> = {},
) {
  const before = await h.moneyState();
  const r = await withdraw(who, amountMinor, over);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ status: 0, msg, data: null });
  expect(r.http).toBe(http);
  expect(await h.moneyState()).toEqual(before);
}

const bal = (userId: number) => memberBalances(h.database.db, userId);

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
  await h.saveSettings({ withdrawMinMinor: String(MIN), withdrawMaxMinor: String(MAX) });
  a = await h.withdrawer('0930000001', 1_000_000_000); // NT$10,000,000
  b = await h.withdrawer('0930000002', 50_000_000);
});
afterAll(async () => h?.close());

describe('user/withdraw rules', () => {
  it('limits from the site settings: min and max accepted, one minor unit beyond refused', async () => {
    await refused(a, MIN - 1, 400, 'belowMinWithdraw');
    await refused(a, MAX + 1, 400, 'aboveMaxWithdraw');
    // Limits follow the operator's settings.
    await h.saveSettings({ withdrawMinMinor: '200000' });
    await refused(a, 199_999, 400, 'belowMinWithdraw');
    await h.saveSettings({ withdrawMinMinor: String(MIN) });
    for (const amount of [MIN, MAX]) {
      const r = await withdraw(a, amount);
      expect(r.body.data, JSON.stringify(r.body)).toMatchObject({ amountMinor: amount, status: 'pending' });
      const back = await h.call('admin/rejectWithdrawal', { id: r.body.data.id, reason: 'limit test' }, op);
      expect(back.body.status).toBe(1);
    }
    await ledgerClean();
  });

  it('withdrawal banned or frozen → 403 cannotWithdrawOrTrade', async () => {
    for (const flag of ['withdrawBanned', 'frozen'] as const) {
      expect(
        (await h.call('admin/setUserFlags', { id: b.userId, [flag]: true, reason: 'test' }, op)).body.status,
      ).toBe(1);
      await refused(b, MIN, 403, 'cannotWithdrawOrTrade');
      expect(
        (await h.call('admin/setUserFlags', { id: b.userId, [flag]: false, reason: 'test' }, op)).body.status,
      ).toBe(1);
    }
  });

  it('another member’s card, a deleted card or an unknown card → 404 cardNotFound', async () => {
    await refused(a, MIN, 404, 'cardNotFound', { cardId: b.cardId });
    await refused(a, MIN, 404, 'cardNotFound', { cardId: 999_999 });
    // A second card of the member's own, deleted through the API.
    const [own] = await h.database.db.select().from(bankCards).where(eq(bankCards.id, a.cardId));
    const added = await h.call(
      'user/addBankCard',
      {
        holderName: own!.holderName,
        cardNumber: '5555000011112222',
        bankCode: '004',
        bankName: 'Old bank',
        branchName: 'Main',
        branchCode: '0037',
      },
      a.token,
    );
    expect(added.body.status, JSON.stringify(added.body)).toBe(1);
    expect((await h.call('user/deleteBankCard', { id: added.body.data.id }, a.token)).body.status).toBe(1);
    const spare = added.body.data as { id: number };
    await refused(a, MIN, 404, 'cardNotFound', { cardId: spare!.id });
  });

  it('a wrong funds password → 422 fundsPasswordWrong, nothing written but the counted try', async () => {
    await refused(a, MIN, 422, 'fundsPasswordWrong', { fundsPassword: '000000' });
    // The right one resets the count and goes through.
    const r = await withdraw(a, MIN);
    expect(r.body.status).toBe(1);
    await h.call('admin/rejectWithdrawal', { id: r.body.data.id, reason: 'reset' }, op);
  });

  it('not enough available cash → 422 insufficientBalance, no row and no posting', async () => {
    const { available } = await bal(b.userId);
    await refused(b, available + 1, 422, 'insufficientBalance');
    const r = await withdraw(b, available);
    expect(r.body.status).toBe(1);
    expect(await bal(b.userId)).toMatchObject({ available: 0, frozen: available });
    await h.call('admin/rejectWithdrawal', { id: r.body.data.id, reason: 'all of it' }, op);
    expect(await bal(b.userId)).toMatchObject({ available, frozen: 0 });
    await ledgerClean();
  });
});

describe('one fund operation in progress', () => {
  it('a second withdrawal while one is pending → 409 otherFundOperation; allowed again after review', async () => {
    const first = await withdraw(a, 300_000);
    expect(first.body.status).toBe(1);
    await refused(a, 300_000, 409, 'otherFundOperation');
    await h.call('admin/approveWithdrawal', { id: first.body.data.id }, op);
    const next = await withdraw(a, 300_000);
    expect(next.body.status).toBe(1);
    await h.call('admin/rejectWithdrawal', { id: next.body.data.id, reason: 'x' }, op);
    await ledgerClean();
  });

  it('racing requests: exactly one becomes pending, the others are refused, no 500', async () => {
    const before = await bal(a.userId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => withdraw(a, 200_000)));
    const okCount = answers.filter((r) => r.body.status === 1).length;
    expect(okCount).toBe(1);
    for (const r of answers.filter((x) => x.body.status !== 1))
      expect([r.http, r.body.msg]).toEqual([409, 'otherFundOperation']);
    const pending = await h.database.db
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, a.userId), eq(withdrawals.status, 'pending')));
    expect(pending).toHaveLength(1);
    expect(await bal(a.userId)).toMatchObject({
      available: before.available - 200_000,
      frozen: before.frozen + 200_000,
    });
    await h.call('admin/rejectWithdrawal', { id: pending[0]!.id, reason: 'race' }, op);
    await ledgerClean();
  });
});

describe('operator review', () => {
  it('queue with card details; approve pays frozen → bank clearing; reject returns it; audited; no double review', async () => {
    const before = await bal(a.userId);
    const req = await withdraw(a, 1_500_000);
    expect(req.body.data).toMatchObject({
      amountMinor: 1_500_000,
      currency: 'TWD',
      cardId: a.cardId,
      cardLabel: expect.stringMatching(/^Cathay United Bank \*{4} \d{4}$/),
      status: 'pending',
      reason: null,
      reviewedAt: null,
    });
    expect(await bal(a.userId)).toMatchObject({
      available: before.available - 1_500_000,
      frozen: before.frozen + 1_500_000,
    });
    const queue = await h.call('admin/withdrawals', { status: 'pending', page: 1, pageSize: 50 }, op);
    const [card] = await h.database.db.select().from(bankCards).where(eq(bankCards.id, a.cardId));
    expect(queue.body.data.items).toEqual([
      expect.objectContaining({
        id: req.body.data.id,
        userId: a.userId,
        account: '0930000001',
        amountMinor: 1_500_000,
        holderName: card!.holderName,
        cardNumber: card!.cardNumber,
        outsideTaiwan: false,
        bankCode: '013',
        bankName: card!.bankName,
        branchName: card!.branchName,
        branchCode: '0077',
        upi: null,
        status: 'pending',
      }),
    ]);
    const paid = await h.call('admin/approveWithdrawal', { id: req.body.data.id }, op);
    expect(paid.body.data).toMatchObject({ status: 'approved' });
    expect(await bal(a.userId)).toMatchObject({
      available: before.available - 1_500_000,
      frozen: before.frozen,
    });
    const state = await h.moneyState();
    for (const [name, body] of [
      ['admin/approveWithdrawal', { id: req.body.data.id }],
      ['admin/rejectWithdrawal', { id: req.body.data.id, reason: 'late' }],
    ] as const) {
      const again = await h.call(name, body, op);
      expect([again.http, again.body.msg]).toEqual([409, 'operationFailed']);
    }
    expect((await h.call('admin/approveWithdrawal', { id: 999_999 }, op)).http).toBe(404);
    expect(await h.moneyState()).toEqual(state);

    const req2 = await withdraw(a, 700_000);
    const back = await h.call(
      'admin/rejectWithdrawal',
      { id: req2.body.data.id, reason: 'name mismatch' },
      op,
    );
    expect(back.body.data).toMatchObject({ status: 'rejected', reason: 'name mismatch' });
    expect(await bal(a.userId)).toMatchObject({
      available: before.available - 1_500_000,
      frozen: before.frozen,
    });
    const [row] = await h.database.db.select().from(withdrawals).where(eq(withdrawals.id, req2.body.data.id));
    expect(row).toMatchObject({ status: 'rejected', reason: 'name mismatch' });
    expect(row!.reviewedBy).not.toBeNull();

    const entries = await h.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetType, 'withdrawal'))
      .orderBy(asc(auditLog.id));
    const approve = entries.find((e) => e.targetId === String(req.body.data.id))!;
    expect(approve.action).toBe('withdrawal.approve');
    expect(JSON.parse(approve.before!)).toMatchObject({ status: 'pending' });
    expect(JSON.parse(approve.after!)).toMatchObject({ status: 'approved' });
    const reject = entries.find((e) => e.targetId === String(req2.body.data.id))!;
    expect(reject).toMatchObject({ action: 'withdrawal.reject', reason: 'name mismatch' });

    // The member's withdrawal tab: the requests on page 1 and every posting, typed.
    const rec = await h.call('user/fundRecords', { tab: 'withdrawal', page: 1, pageSize: 200 }, a.token);
    const mine = rec.body.data.withdrawals as Array<{ id: number; status: string; reason: string | null }>;
    expect(mine.slice(0, 2)).toEqual([
      expect.objectContaining({ id: req2.body.data.id, status: 'rejected', reason: 'name mismatch' }),
      expect.objectContaining({ id: req.body.data.id, status: 'approved' }),
    ]);
    const refs = (ref: string) =>
      (rec.body.data.items as Array<{ type: string; account: string; amountMinor: number; ref: string }>)
        .filter((p) => p.ref === ref)
        .map((p) => [p.type, p.account, p.amountMinor]);
    expect(refs(`withdrawal:${req.body.data.id}`)).toEqual([
      ['withdrawalPaid', 'frozen', -1_500_000],
      ['withdrawal', 'frozen', 1_500_000],
      ['withdrawal', 'available', -1_500_000],
    ]);
    expect(refs(`withdrawal:${req2.body.data.id}`)).toEqual([
      ['withdrawalRejected', 'available', 700_000],
      ['withdrawalRejected', 'frozen', -700_000],
      ['withdrawal', 'frozen', 700_000],
      ['withdrawal', 'available', -700_000],
    ]);
    expect(rec.body.data.deposits).toEqual([]);
    expect(rec.body.data.exchanges).toEqual([]);
    // Nobody else sees them; a member cannot review.
    const otherRec = await h.call('user/fundRecords', { tab: 'withdrawal', page: 1, pageSize: 200 }, b.token);
    expect(otherRec.body.data.withdrawals.map((w: { id: number }) => w.id)).not.toContain(req.body.data.id);
    expect((await h.call('admin/approveWithdrawal', { id: req.body.data.id }, a.token)).http).toBe(403);
    expect((await h.call('admin/withdrawals', { status: 'all' }, a.token)).http).toBe(403);
    await ledgerClean();
  });
});

describe('idempotency of user/withdraw', () => {
  it('same key and body → the first answer, money frozen once; other body → keyMismatch; no key → 400', async () => {
    const before = await bal(a.userId);
    const body = { amountMinor: 250_000, fundsPassword: FUNDS_PASSWORD, cardId: a.cardId };
    const headers = idem();
    const first = await h.call('user/withdraw', body, a.token, headers);
    expect(first.body.status).toBe(1);
    const state = await h.moneyState();
    expect(await h.call('user/withdraw', body, a.token, headers)).toEqual(first);
    expect(await h.moneyState()).toEqual(state);
    const other = await h.call('user/withdraw', { ...body, amountMinor: 260_000 }, a.token, headers);
    expect([other.http, other.body.msg]).toEqual([422, 'keyMismatch']);
    const none = await h.call('user/withdraw', body, a.token);
    expect([none.http, none.body.msg]).toEqual([400, 'idempotencyKeyRequired']);
    expect(await h.moneyState()).toEqual(state);
    expect(await bal(a.userId)).toMatchObject({
      available: before.available - 250_000,
      frozen: before.frozen + 250_000,
    });
    await h.call('admin/rejectWithdrawal', { id: first.body.data.id, reason: 'done' }, op);
    await ledgerClean();
  });
});
