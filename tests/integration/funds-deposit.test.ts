/**
 * Deposits end to end (product-spec §3 "Deposit", §5 "Deposit", §8 "Money", §9 "Deposit hours"):
 * channels managed by the operator, deposit hours on the real TWSE calendar, every request rule at
 * its edge (refusals write nothing), the receipt and channel password, the operator's review with
 * its audit entries, idempotency, and a clean ledger after each flow.
 */
import { and, asc, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deposits, users } from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { OPERATOR, idem, startHarness, type Harness } from './harness';
import { injectClient, multipart } from './support/client';
import { ensureVerified } from './support/members';
import { png } from './support/files';

let h: Harness;
let op: string;
let member: string;
let memberId: number;
let other: string;
/** A channel NT$1,000 … NT$50,000 with the password "letmein". */
let locked: number;

const at = (local: string) => DateTime.fromISO(local, { zone: 'Asia/Taipei' }).toMillis();
const OPEN_ALWAYS = {
  depositOpen: '00:00',
  depositClose: '24:00',
  depositWeekdaysOnly: 'false',
  depositHolidaysClosed: 'false',
};
const DEFAULT_HOURS = {
  depositOpen: '09:30',
  depositClose: '19:30',
  depositWeekdaysOnly: 'true',
  depositHolidaysClosed: 'true',
};

const channel = (over: Record<string, unknown> = {}) => ({
  name: 'Taipei Fubon transfer',
  accountName: 'TW Trade Ltd',
  accountNumber: '0123456789012',
  bankName: 'Taipei Fubon Bank',
  branch: 'Xinyi',
  currency: 'TWD',
  minMinor: 100_000,
  maxMinor: 5_000_000,
  enabled: true,
  ...over,
});

async function ledgerClean() {
  const r = await reconcile(h.database.db);
  expect(isClean(r), JSON.stringify(r)).toBe(true);
}

/** user/recharge with a fresh idempotency key. */
const recharge = (body: Record<string, unknown>, token = member) =>
  h.call('user/recharge', body, token, idem());

/** Uploads a real PNG for `purpose` through POST /api/vue/upload; returns its id. */
async function upload(token: string, purpose: 'receipt' | 'kycFront') {
  const { body, contentType } = multipart({ purpose }, png(++uploads));
  const r = await h.app.inject({
    method: 'POST',
    url: '/api/vue/upload',
    headers: { token, 'content-type': contentType },
    payload: body,
  });
  expect(r.json().status).toBe(1);
  return r.json().data.id as string;
}
let uploads = 1000;

/** Expects a refusal and that no money table changed. */
async function refused(body: Record<string, unknown>, http: number, msg: string, token = member) {
  const before = await h.moneyState();
  const r = await recharge(body, token);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ status: 0, msg, data: null });
  expect(r.http).toBe(http);
  expect(await h.moneyState()).toEqual(before);
}

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
  member = await h.register('0920000001');
  memberId = await h.userId('0920000001');
  other = await h.register('0920000002');
  // Deposits need a verified identity (tests/integration/newcomer-inputs.test.ts refuses one without).
  for (const token of [member, other]) await ensureVerified(injectClient(h.app), op, token);
  const r = await h.call('admin/saveChannel', channel({ password: 'letmein' }), op);
  expect(r.body.status).toBe(1);
  locked = r.body.data.id;
  await h.saveSettings(OPEN_ALWAYS);
});
afterAll(async () => h?.close());

describe('deposit channels', () => {
  it('members see enabled channels without the password, operators see all', async () => {
    const off = await h.call('admin/saveChannel', channel({ name: 'Closed channel', enabled: false }), op);
    expect(off.body.data).toMatchObject({ name: 'Closed channel', enabled: false, hasPassword: false });
    const mine = await h.call('user/depositChannels', {}, member);
    expect(mine.body.status).toBe(1);
    const ids = mine.body.data.channels.map((c: { id: number }) => c.id);
    expect(ids).toContain(locked);
    expect(ids).not.toContain(off.body.data.id);
    const c = mine.body.data.channels.find((x: { id: number }) => x.id === locked);
    expect(c).toEqual({
      id: locked,
      name: 'Taipei Fubon transfer',
      accountName: 'TW Trade Ltd',
      accountNumber: '0123456789012',
      bankName: 'Taipei Fubon Bank',
      branch: 'Xinyi',
      currency: 'TWD',
      minMinor: 100_000,
      maxMinor: 5_000_000,
      hasPassword: true,
    });
    expect(JSON.stringify(mine.body)).not.toContain('$argon2');
    const all = await h.call('admin/channels', {}, op);
    expect(all.body.data.map((x: { id: number }) => x.id)).toEqual(
      expect.arrayContaining([locked, off.body.data.id]),
    );
    expect(JSON.stringify(all.body)).not.toContain('$argon2');
    // A member cannot manage channels.
    expect((await h.call('admin/saveChannel', channel(), member)).http).toBe(403);
    expect((await h.call('admin/channels', {}, member)).http).toBe(403);
  });

  it('saveChannel updates: omitted password kept, "" removes it, a new one replaces it; each save audited', async () => {
    const created = await h.call('admin/saveChannel', channel({ name: 'Editable', password: 'first1' }), op);
    const id = created.body.data.id as number;
    const kept = await h.call('admin/saveChannel', channel({ id, name: 'Edited', maxMinor: 6_000_000 }), op);
    expect(kept.body.data).toMatchObject({ id, name: 'Edited', maxMinor: 6_000_000, hasPassword: true });
    const removed = await h.call('admin/saveChannel', channel({ id, name: 'Edited', password: '' }), op);
    expect(removed.body.data.hasPassword).toBe(false);
    const again = await h.call('admin/saveChannel', channel({ id, name: 'Edited', password: 'second2' }), op);
    expect(again.body.data.hasPassword).toBe(true);
    const entries = await h.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'depositChannel'), eq(auditLog.targetId, String(id))))
      .orderBy(asc(auditLog.id));
    expect(entries.map((e) => e.action)).toEqual([
      'channel.create',
      'channel.update',
      'channel.update',
      'channel.update',
    ]);
    expect(JSON.parse(entries[1]!.before!)).toMatchObject({ name: 'Editable', maxMinor: 5_000_000 });
    expect(JSON.parse(entries[1]!.after!)).toMatchObject({ name: 'Edited', maxMinor: 6_000_000 });
    expect(JSON.parse(entries[2]!.after!)).toMatchObject({ hasPassword: false, passwordChanged: true });
    for (const e of entries) expect(`${e.before}${e.after}`).not.toContain('$argon2');
    // Unknown id, min above max.
    expect((await h.call('admin/saveChannel', channel({ id: 999_999 }), op)).body.msg).toBe('notFound');
    const bad = await h.call('admin/saveChannel', channel({ minMinor: 10, maxMinor: 9 }), op);
    expect([bad.http, bad.body.msg]).toEqual([400, 'parameterError']);
  });
});

describe('deposit hours (Asia/Taipei, real TWSE calendar)', () => {
  const wall0 = () => h.wall.now;
  it('default hours: closed on New Year’s Day with the next opening; open at 09:30 on 2026-01-02', async () => {
    const saved = wall0();
    try {
      await h.saveSettings(DEFAULT_HOURS);
      h.wall.now = at('2026-01-01T10:00');
      const ch = await h.call('user/depositChannels', {}, member);
      expect(ch.body.data).toMatchObject({
        hours: { open: '09:30', close: '19:30', weekdaysOnly: true, holidaysClosed: true },
        openNow: false,
        nextOpenAt: at('2026-01-02T09:30'),
      });
      const receipt = await h.uploadReceipt(member);
      const body = {
        channelId: locked,
        amountMinor: 100_000,
        receiptUploadId: receipt,
        channelPassword: 'letmein',
      };
      await refused(body, 422, 'notDepositTime');
      h.wall.now = at('2026-01-02T09:29:59');
      await refused(body, 422, 'notDepositTime');
      h.wall.now = at('2026-01-03T12:00'); // Saturday
      await refused(body, 422, 'notDepositTime');
      expect((await h.call('user/depositChannels', {}, member)).body.data.nextOpenAt).toBe(
        at('2026-01-05T09:30'),
      );
      h.wall.now = at('2026-01-05T19:30'); // Monday, at closing
      await refused(body, 422, 'notDepositTime');
      h.wall.now = at('2026-01-05T19:29:59');
      const ok = await recharge(body);
      expect(ok.body.status).toBe(1);
      h.wall.now = at('2026-01-02T09:30');
      expect((await h.call('user/depositChannels', {}, member)).body.data).toMatchObject({
        openNow: true,
        nextOpenAt: null,
      });
    } finally {
      h.wall.now = saved;
      await h.saveSettings(OPEN_ALWAYS);
    }
  });
});

describe('user/recharge rules', () => {
  const good = async (over: Record<string, unknown> = {}) => ({
    channelId: locked,
    amountMinor: 100_000,
    receiptUploadId: await h.uploadReceipt(member),
    channelPassword: 'letmein',
    ...over,
  });

  it('amount at the channel limits: min and max accepted, one minor unit beyond refused', async () => {
    await refused(await good({ amountMinor: 99_999 }), 400, 'belowMinDeposit');
    await refused(await good({ amountMinor: 5_000_001 }), 400, 'aboveMaxDeposit');
    for (const amountMinor of [100_000, 5_000_000]) {
      const r = await recharge(await good({ amountMinor }));
      expect(r.body.data).toMatchObject({ amountMinor, currency: 'TWD', status: 'pending' });
    }
  });

  it('unknown or disabled channel → 404 notFound', async () => {
    await refused(await good({ channelId: 999_999 }), 404, 'notFound');
    const off = await h.call('admin/saveChannel', channel({ name: 'Off', enabled: false }), op);
    await refused(await good({ channelId: off.body.data.id }), 404, 'notFound');
  });

  it('a frozen account → 403 accountFrozen', async () => {
    const token = await h.register('0920000009');
    const id = await h.userId('0920000009');
    const f = await h.call('admin/setUserFlags', { id, frozen: true, reason: 'test' }, op);
    expect(f.body.status).toBe(1);
    const receipt = await h.uploadReceipt(token);
    await refused(
      { channelId: locked, amountMinor: 100_000, receiptUploadId: receipt },
      403,
      'accountFrozen',
      token,
    );
  });

  it('the receipt: missing, someone else’s, not a receipt, or already used → 422 uploadProofFirst', async () => {
    await refused(await good({ receiptUploadId: undefined }), 422, 'uploadProofFirst');
    await refused(await good({ receiptUploadId: await h.uploadReceipt(other) }), 422, 'uploadProofFirst');
    await refused(await good({ receiptUploadId: await upload(member, 'kycFront') }), 422, 'uploadProofFirst');
    await refused(await good({ receiptUploadId: 'f'.repeat(32) }), 422, 'uploadProofFirst');
    const body = await good();
    expect((await recharge(body)).body.status).toBe(1);
    await refused(body, 422, 'uploadProofFirst'); // same receipt, new idempotency key
  });

  it('the channel password: missing or wrong → 422 channelPasswordWrong; a channel without one ignores it', async () => {
    await refused(await good({ channelPassword: undefined }), 422, 'channelPasswordWrong');
    await refused(await good({ channelPassword: '' }), 422, 'channelPasswordWrong');
    await refused(await good({ channelPassword: 'letmeout' }), 422, 'channelPasswordWrong');
    const open = await h.call('admin/saveChannel', channel({ name: 'No password' }), op);
    const r = await recharge(await good({ channelId: open.body.data.id, channelPassword: 'anything' }));
    expect(r.body.status).toBe(1);
  });

  it('the row stores the channel and the receipt; the currency is the channel’s', async () => {
    const usd = await h.call('admin/saveChannel', channel({ name: 'USD wire', currency: 'USD' }), op);
    const body = await good({
      channelId: usd.body.data.id,
      amountMinor: 250_000,
      channelPassword: undefined,
    });
    const r = await recharge(body);
    expect(r.body.data).toMatchObject({ currency: 'USD', channelName: 'USD wire', amountMinor: 250_000 });
    const [row] = await h.database.db.select().from(deposits).where(eq(deposits.id, r.body.data.id));
    expect(row).toMatchObject({
      userId: memberId,
      channelId: usd.body.data.id,
      receiptUploadId: body.receiptUploadId,
      currency: 'USD',
      status: 'pending',
    });
    // Approval credits the member's USD account, created on demand.
    const ok = await h.call('admin/approveDeposit', { id: r.body.data.id }, op);
    expect(ok.body.data).toMatchObject({ status: 'approved', currency: 'USD', channelName: 'USD wire' });
    expect((await memberBalances(h.database.db, memberId, 'USD')).available).toBe(250_000);
    const bal = await h.call('user/balances', {}, member);
    expect(bal.body.data).toEqual(
      expect.arrayContaining([{ currency: 'USD', availableMinor: 250_000, frozenMinor: 0, marginMinor: 0 }]),
    );
    await ledgerClean();
  });
});

describe('operator review', () => {
  it('queue shows channel and receipt; approve posts bank clearing → available; both reviews audited', async () => {
    const token = await h.register('0920000003');
    const id = await h.userId('0920000003');
    await ensureVerified(injectClient(h.app), op, token);
    const receipt = await h.uploadReceipt(token);
    const dep = await recharge(
      { channelId: locked, amountMinor: 1_234_500, receiptUploadId: receipt, channelPassword: 'letmein' },
      token,
    );
    expect(dep.body.data).toMatchObject({
      status: 'pending',
      channelName: 'Taipei Fubon transfer',
      reviewedAt: null,
    });
    const queue = await h.call('admin/deposits', { status: 'pending', page: 1, pageSize: 200 }, op);
    const row = queue.body.data.items.find((d: { id: number }) => d.id === dep.body.data.id);
    expect(row).toMatchObject({
      account: '0920000003',
      userId: id,
      amountMinor: 1_234_500,
      channelName: 'Taipei Fubon transfer',
      receiptUploadId: receipt,
      status: 'pending',
    });
    const before = await memberBalances(h.database.db, id);
    const ok = await h.call('admin/approveDeposit', { id: dep.body.data.id }, op);
    expect(ok.body.data).toMatchObject({ status: 'approved', receiptUploadId: receipt });
    expect((await memberBalances(h.database.db, id)).available).toBe(before.available + 1_234_500);
    // A second review of the same deposit is refused and moves nothing.
    const state = await h.moneyState();
    for (const [name, body] of [
      ['admin/approveDeposit', { id: dep.body.data.id }],
      ['admin/rejectDeposit', { id: dep.body.data.id, reason: 'late' }],
    ] as const) {
      const again = await h.call(name, body, op);
      expect([again.http, again.body.msg]).toEqual([409, 'operationFailed']);
    }
    expect(await h.moneyState()).toEqual(state);
    expect((await h.call('admin/approveDeposit', { id: 999_999 }, op)).http).toBe(404);

    const dep2 = await recharge(
      {
        channelId: locked,
        amountMinor: 100_000,
        receiptUploadId: await h.uploadReceipt(token),
        channelPassword: 'letmein',
      },
      token,
    );
    const no = await h.call(
      'admin/rejectDeposit',
      { id: dep2.body.data.id, reason: 'receipt unreadable' },
      op,
    );
    expect(no.body.data).toMatchObject({ status: 'rejected', reason: 'receipt unreadable' });
    expect((await memberBalances(h.database.db, id)).available).toBe(before.available + 1_234_500);

    const entries = await h.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetType, 'deposit'))
      .orderBy(asc(auditLog.id));
    const a = entries.find((e) => e.targetId === String(dep.body.data.id))!;
    const [opRow] = await h.database.db.select().from(users).where(eq(users.account, OPERATOR.account));
    expect(a).toMatchObject({ action: 'deposit.approve', actorUserId: opRow!.id });
    expect(JSON.parse(a.before!)).toMatchObject({ status: 'pending' });
    expect(JSON.parse(a.after!)).toMatchObject({ status: 'approved' });
    const r = entries.find((e) => e.targetId === String(dep2.body.data.id))!;
    expect(r).toMatchObject({ action: 'deposit.reject', reason: 'receipt unreadable' });
    expect(JSON.parse(r.after!)).toMatchObject({ status: 'rejected', reason: 'receipt unreadable' });
    // The member sees both requests on the deposit tab, and the approved one as a posting.
    const rec = await h.call('user/fundRecords', { tab: 'deposit', page: 1, pageSize: 20 }, token);
    expect(rec.body.data.deposits.map((d: { status: string }) => d.status)).toEqual(['rejected', 'approved']);
    expect(rec.body.data.items).toEqual([
      expect.objectContaining({
        type: 'deposit',
        account: 'available',
        amountMinor: 1_234_500,
        currency: 'TWD',
        ref: `deposit:${dep.body.data.id}`,
      }),
    ]);
    await ledgerClean();
  });
});

describe('idempotency of user/recharge', () => {
  it('same key and body → the first answer, one row; other body → keyMismatch; no key → 400', async () => {
    const body = {
      channelId: locked,
      amountMinor: 200_000,
      receiptUploadId: await h.uploadReceipt(member),
      channelPassword: 'letmein',
    };
    const headers = idem();
    const first = await h.call('user/recharge', body, member, headers);
    expect(first.body.status).toBe(1);
    const state = await h.moneyState();
    const second = await h.call('user/recharge', body, member, headers);
    expect(second).toEqual(first);
    expect(await h.moneyState()).toEqual(state);
    const other = await h.call('user/recharge', { ...body, amountMinor: 300_000 }, member, headers);
    expect([other.http, other.body.msg]).toEqual([422, 'keyMismatch']);
    const none = await h.call('user/recharge', { ...body, amountMinor: 300_000 }, member);
    expect([none.http, none.body.msg]).toEqual([400, 'idempotencyKeyRequired']);
    expect(await h.moneyState()).toEqual(state);
    // A refusal is stored too: the retry gets the same refusal.
    const k = idem();
    const bad = await h.call('user/recharge', { ...body, amountMinor: 1 }, member, k);
    expect(bad.body.msg).toBe('belowMinDeposit');
    expect(await h.call('user/recharge', { ...body, amountMinor: 1 }, member, k)).toEqual(bad);
  });
});
