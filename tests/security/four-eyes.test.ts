/**
 * Four eyes on money and identity, replayed as an attacker inside the firm would try it:
 * - an operator reviewing their own deposit, withdrawal, KYC submission or day-trading application
 *   (approve or reject) is
 *   refused 403 selfReview, every table but the audit log is byte-for-byte unchanged, and each
 *   attempt leaves one `review.selfRefused` audit entry; another operator can still decide them;
 * - an operator's session on any member endpoint (and on the upload route) is refused 403
 *   forbidden with nothing written, while the endpoints every account has (log out, login
 *   password) still serve it;
 * - a receipt is its picture: the same file sent again by the same member for a second deposit
 *   is refused 409 receiptAlreadyUsed with nothing written (also when both requests race); the
 *   same file from another member is accepted and flagged in the operator's deposit list with
 *   the other deposit's id and account.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type EndpointName } from '../../contract/api';
import { auditLog, deposits, uploads, users } from '../../server/db/schema';
import { isUniqueViolation } from '../../server/modules/common/db-errors';
import { INVITE, startHarness, type Harness } from '../integration/harness';
import { idem, injectClient, uploadOk, type ApiClient } from '../integration/support/client';
import { png } from '../integration/support/files';
import { ALL_TABLES, fingerprint, rowsOf } from '../integration/support/fingerprint';
import {
  FUNDS_PASSWORD,
  addCard,
  cardNumberFor,
  ensureVerified,
  nameFor,
  ok,
  pendingKycId,
  register,
  setFundsPassword,
  submitKyc,
  taiwanId,
  verify,
} from '../integration/support/members';

let h: Harness;
let c: ApiClient;
let dataDir: string;
/** The first-run admin: the second pair of eyes. */
let admin: string;
let channelId: number;

/** An operator who has requests of their own awaiting review. */
interface PromotedOperator {
  account: string;
  id: number;
  token: string;
}
/** Owns a pending deposit, a pending withdrawal and a pending day-trading application. */
let P: PromotedOperator;
/** Owns a KYC submission in review. */
let Q: PromotedOperator;
let pDepositId: number;
let pWithdrawalId: number;
let pDayTradeId: number;
let qKycId: number;

/** A file no other test in this file sends (distinct bytes per call). */
let files = 500;
const freshFile = () => png(++files);

async function promote(account: string): Promise<PromotedOperator> {
  const id = await h.userId(account);
  await h.database.db.update(users).set({ role: 'operator' }).where(eq(users.id, id));
  const token = ok(await c.call('admin/login', { account, password: 'password123' }), 'admin/login').token;
  return { account, id, token };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tw-four-eyes-'));
  h = await startHarness({ dataDir });
  c = injectClient(h.app);
  admin = await h.operatorToken();
  await h.openDepositHours();
  channelId = await h.depositChannel();

  // Operators can no longer use the member API, so an operator with requests of their own only
  // arises from an account that made them as a member and was promoted afterwards: build that
  // through the API as members, then promote the accounts in the database (there is no
  // promotion endpoint).
  const pAccount = '0931000001';
  const pToken = await register(c, pAccount, INVITE);
  const pName = nameFor(pAccount);
  await verify(c, admin, pToken, pAccount, pName, taiwanId(31));
  const cardId = await addCard(c, pToken, pName, cardNumberFor(pAccount));
  await setFundsPassword(c, pToken);
  const funding = await h.deposit(pToken, 10_000_000);
  ok(await c.call('admin/approveDeposit', { id: funding }, admin), 'approve funding');
  pWithdrawalId = ok(
    await c.call(
      'user/withdraw',
      { amountMinor: 2_000_000, fundsPassword: FUNDS_PASSWORD, cardId },
      pToken,
      idem(),
    ),
    'withdraw',
  ).id;
  pDepositId = await h.deposit(pToken, 3_000_000);
  // A new account is not eligible at once: its application waits for an operator.
  const dayTrade = ok(await c.call('dayTrade/apply', {}, pToken), 'dayTrade/apply');
  expect(dayTrade.status).toBe('pending');
  pDayTradeId = dayTrade.id;

  const qAccount = '0931000002';
  const qToken = await register(c, qAccount, INVITE);
  await submitKyc(c, qToken, nameFor(qAccount), taiwanId(32));
  qKycId = await pendingKycId(c, admin, qAccount);

  P = await promote(pAccount);
  Q = await promote(qAccount);
}, 180_000);
afterAll(async () => {
  await h?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const allButAudit = () =>
  fingerprint(
    h.database.db,
    ALL_TABLES.filter((t) => t !== 'audit_log'),
  );
/** Resolves once a backend of this database waits on a lock (PostgreSQL); throws after 10 s. */
async function waitForLockWait(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = await h.database.db.execute(
      sql.raw(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      ),
    );
    if (rowsOf<{ n: number }>(r)[0]!.n > 0) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error('no request waited on the held deposit');
}

const selfRefusals = (actor: number) =>
  h.database.db
    .select({ targetType: auditLog.targetType, targetId: auditLog.targetId })
    .from(auditLog)
    .where(and(eq(auditLog.actorUserId, actor), eq(auditLog.action, 'review.selfRefused')))
    .orderBy(auditLog.id);

describe('an operator reviewing their own request', () => {
  it('is refused 403 selfReview for deposits, withdrawals, KYC and day trading, changes nothing, and is audited', async () => {
    const attempts: Array<{ by: PromotedOperator; name: EndpointName; body: object; target: string }> = [
      { by: P, name: 'admin/approveDeposit', body: { id: pDepositId }, target: `deposit:${pDepositId}` },
      {
        by: P,
        name: 'admin/rejectDeposit',
        body: { id: pDepositId, reason: 'mine' },
        target: `deposit:${pDepositId}`,
      },
      {
        by: P,
        name: 'admin/approveWithdrawal',
        body: { id: pWithdrawalId },
        target: `withdrawal:${pWithdrawalId}`,
      },
      {
        by: P,
        name: 'admin/rejectWithdrawal',
        body: { id: pWithdrawalId, reason: 'mine' },
        target: `withdrawal:${pWithdrawalId}`,
      },
      {
        by: P,
        name: 'admin/approveDayTrade',
        body: { id: pDayTradeId },
        target: `dayTradeApplication:${pDayTradeId}`,
      },
      {
        by: P,
        name: 'admin/rejectDayTrade',
        body: { id: pDayTradeId, reason: 'mine' },
        target: `dayTradeApplication:${pDayTradeId}`,
      },
      { by: Q, name: 'admin/approveKyc', body: { id: qKycId }, target: `kyc:${qKycId}` },
      { by: Q, name: 'admin/rejectKyc', body: { id: qKycId, reason: 'mine' }, target: `kyc:${qKycId}` },
    ];
    const before = await allButAudit();
    const money = await h.moneyState();
    for (const a of attempts) {
      const r = await c.call(a.name, a.body, a.by.token);
      expect([a.name, r.http, r.body], a.name).toEqual([
        a.name,
        403,
        { status: 0, msg: 'selfReview', data: null },
      ]);
    }
    expect(await allButAudit()).toEqual(before);
    // The ledger and the requests themselves are untouched (moneyState includes the audit log,
    // so compare it without that table).
    const moneyNow = await h.moneyState();
    expect({ ...moneyNow, audit_log: '' }).toEqual({ ...money, audit_log: '' });

    const refusals = (await selfRefusals(P.id)).concat(await selfRefusals(Q.id));
    expect(refusals.map((r) => `${r.targetType}:${r.targetId}`).sort()).toEqual(
      attempts.map((a) => a.target).sort(),
    );
    // The console's audit log names the refusals too.
    const log = ok(await c.call('admin/auditLog', { page: 1, pageSize: 20 }, admin), 'auditLog');
    expect(log.items.filter((e: { action: string }) => e.action === 'review.selfRefused')).toHaveLength(
      attempts.length,
    );
  });

  it("is no obstacle to another operator: P decides Q's KYC, the admin P's deposit, withdrawal and day trading", async () => {
    expect(ok(await c.call('admin/approveKyc', { id: qKycId }, P.token), 'approveKyc').status).toBe(
      'verified',
    );
    expect(ok(await c.call('admin/approveDeposit', { id: pDepositId }, admin), 'approveDeposit').status).toBe(
      'approved',
    );
    expect(
      ok(
        await c.call('admin/rejectWithdrawal', { id: pWithdrawalId, reason: 'second eyes' }, admin),
        'reject',
      ).status,
    ).toBe('rejected');
    expect(
      ok(await c.call('admin/approveDayTrade', { id: pDayTradeId }, admin), 'approveDayTrade').status,
    ).toBe('approved');
  });
});

describe('an operator session on the member API', () => {
  const memberEndpoints = (Object.keys(api) as EndpointName[]).filter((n) => api[n].access === 'member');

  it('is refused 403 forbidden at every member endpoint and at the upload route, writing nothing', async () => {
    expect(memberEndpoints.length).toBeGreaterThan(20);
    expect(memberEndpoints).toEqual(
      expect.arrayContaining(['user/recharge', 'user/withdraw', 'user/submitKyc', 'trade/placeOrder']),
    );
    const before = await fingerprint(h.database.db);
    const failures: string[] = [];
    for (const token of [admin, P.token]) {
      for (const name of memberEndpoints) {
        const r = await c.call(name, {}, token, api[name].idempotent ? idem() : {});
        if (r.http !== 403 || r.body?.msg !== 'forbidden' || r.body?.status !== 0 || r.body?.data !== null)
          failures.push(`${name}: ${r.http} ${JSON.stringify(r.body)}`);
      }
      const up = await c.upload(token, { purpose: 'receipt' }, freshFile());
      if (up.http !== 403 || up.body?.msg !== 'forbidden')
        failures.push(`upload: ${up.http} ${JSON.stringify(up.body)}`);
    }
    expect(failures).toEqual([]);
    expect(await fingerprint(h.database.db)).toEqual(before);
  });

  it('still serves the endpoints every account has: log out (and the console keeps working until then)', async () => {
    const anyEndpoints = (Object.keys(api) as EndpointName[]).filter((n) => api[n].access === 'any');
    expect(anyEndpoints.sort()).toEqual(['user/loginPassword', 'user/logout']);
    const token = ok(
      await c.call('admin/login', { account: P.account, password: 'password123' }),
      'login',
    ).token;
    expect((await c.call('admin/deposits', {}, token)).body.status).toBe(1);
    expect((await c.call('user/logout', {}, token)).body).toMatchObject({ status: 1 });
    expect((await c.call('admin/deposits', {}, token)).http).toBe(401);
  });
});

describe('receipts matched by content', () => {
  let M: string;
  let N: string;
  let mAccount: string;
  let nAccount: string;
  const recharge = (token: string, receiptUploadId: string, amountMinor = 1_000_000) =>
    c.call('user/recharge', { channelId, amountMinor, receiptUploadId }, token, idem());

  beforeAll(async () => {
    mAccount = '0932000001';
    nAccount = '0932000002';
    M = await register(c, mAccount, INVITE);
    N = await register(c, nAccount, INVITE);
    // Deposits need a verified identity.
    for (const token of [M, N]) await ensureVerified(c, admin, token);
  });

  it('the same file twice for one member: 409 receiptAlreadyUsed, nothing written; approved or pending alike', async () => {
    const file = freshFile();
    const first = ok(await recharge(M, await uploadOk(c, M, 'receipt', file)), 'first deposit');
    for (const stage of ['pending', 'approved'] as const) {
      if (stage === 'approved') ok(await c.call('admin/approveDeposit', { id: first.id }, admin), 'approve');
      // The same bytes again, as a new upload (a new upload id): only the content says it is reused.
      const again = await uploadOk(c, M, 'receipt', { ...file, filename: 'renamed.png' });
      const before = await fingerprint(
        h.database.db,
        ALL_TABLES.filter((t) => t !== 'idempotency_keys'),
      );
      const r = await recharge(M, again, 2_000_000);
      expect([stage, r.http, r.body]).toEqual([
        stage,
        409,
        { status: 0, msg: 'receiptAlreadyUsed', data: null },
      ]);
      expect(
        await fingerprint(
          h.database.db,
          ALL_TABLES.filter((t) => t !== 'idempotency_keys'),
        ),
      ).toEqual(before);
    }
    // A different file is a different transfer.
    ok(await recharge(M, await uploadOk(c, M, 'receipt', freshFile())), 'another receipt');
  });

  it('requests racing with the same file: exactly one deposit, the database refuses a second live row', async () => {
    const RACERS = 8;
    const file = freshFile();
    const ids: string[] = [];
    for (let i = 0; i < RACERS; i++) ids.push(await uploadOk(c, M, 'receipt', file));
    const mId = await h.userId(mAccount);
    const mine = async () => h.database.db.select().from(deposits).where(eq(deposits.userId, mId));
    const countBefore = (await mine()).length;
    const answers = await Promise.all(ids.map((id) => recharge(M, id)));
    const wins = answers.filter((x) => x.body.status === 1);
    expect(wins).toHaveLength(1);
    for (const x of answers.filter((y) => y.body.status !== 1))
      expect([x.http, x.body]).toEqual([409, { status: 0, msg: 'receiptAlreadyUsed', data: null }]);
    const rows = await mine();
    expect(rows.length).toBe(countBefore + 1);

    // Whatever the timing, the partial unique index holds the line: a second live deposit of
    // this member with this receipt content cannot be written, a rejected one can.
    const won = rows.find((r) => r.id === wins[0]!.body.data.id)!;
    const copy = {
      userId: mId,
      amountMinor: 1,
      currency: 'TWD',
      channelId,
      receiptUploadId: ids.find((id) => id !== won.receiptUploadId)!,
      receiptSha256: won.receiptSha256,
    };
    const error = await h.database.db
      .insert(deposits)
      .values(copy)
      .then(() => null)
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error, 'deposits_member_receipt_uq')).toBe(true);
    let rejectedWritten = false;
    await h.database.db
      .transaction(async (tx) => {
        await tx.insert(deposits).values({ ...copy, status: 'rejected' });
        rejectedWritten = true;
        tx.rollback(); // a probe only: leave nothing behind
      })
      .catch((e: unknown) => {
        if (!rejectedWritten) throw e;
      });
    expect(rejectedWritten).toBe(true);

    // The requests above may well run one after the other. On PostgreSQL, make the race certain:
    // an uncommitted deposit with the same content holds the index entry, so the request passes
    // both checks, inserts, waits on that entry and, once it commits, must answer 409 (PGlite runs
    // one transaction at a time, so there the checks are the whole story).
    if (process.env.TEST_DB === 'postgres') {
      const held = freshFile();
      const heldId = await uploadOk(c, M, 'receipt', held);
      const sentId = await uploadOk(c, M, 'receipt', held);
      const [{ sha }] = (await h.database.db
        .select({ sha: uploads.pixelsSha256 })
        .from(uploads)
        .where(eq(uploads.id, heldId))) as [{ sha: string }];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let holding!: () => void;
      const holds = new Promise<void>((r) => (holding = r));
      const holder = h.database.db.transaction(async (tx) => {
        await tx
          .insert(deposits)
          .values({ ...copy, receiptUploadId: heldId, receiptSha256: sha, amountMinor: 2 });
        holding();
        await gate;
      });
      await holds;
      const racing = recharge(M, sentId);
      await waitForLockWait();
      release();
      await holder;
      const r = await racing;
      expect([r.http, r.body]).toEqual([409, { status: 0, msg: 'receiptAlreadyUsed', data: null }]);
      expect((await mine()).filter((d) => d.receiptSha256 === sha).map((d) => d.receiptUploadId)).toEqual([
        heldId,
      ]);
    }
  });

  it('a rejected deposit credited nothing: its receipt may be sent again', async () => {
    const file = freshFile();
    const first = ok(await recharge(M, await uploadOk(c, M, 'receipt', file), 123_400), 'typo amount');
    ok(await c.call('admin/rejectDeposit', { id: first.id, reason: 'amount differs' }, admin), 'reject');
    const again = ok(await recharge(M, await uploadOk(c, M, 'receipt', file), 1_234_000), 'corrected');
    const list = ok(await c.call('admin/deposits', { status: 'pending', pageSize: 200 }, admin), 'list');
    const row = list.items.find((d: { id: number }) => d.id === again.id);
    expect(row.receiptMatches).toEqual([
      { id: first.id, userId: await h.userId(mAccount), account: mAccount, status: 'rejected' },
    ]);
  });

  it("another member's deposit with the same file is accepted and flagged in the console's list", async () => {
    const file = freshFile();
    const mine = ok(await recharge(M, await uploadOk(c, M, 'receipt', file)), 'M deposit');
    const theirs = ok(await recharge(N, await uploadOk(c, N, 'receipt', file)), 'N deposit');
    const unique = ok(await recharge(N, await uploadOk(c, N, 'receipt', freshFile())), 'N unique');
    const mId = await h.userId(mAccount);
    const nId = await h.userId(nAccount);

    const list = ok(await c.call('admin/deposits', { status: 'pending', pageSize: 200 }, admin), 'list');
    const byId = (id: number) => list.items.find((d: { id: number }) => d.id === id);
    expect(byId(theirs.id).receiptMatches).toEqual([
      { id: mine.id, userId: mId, account: mAccount, status: 'pending' },
    ]);
    expect(byId(mine.id).receiptMatches).toEqual([
      { id: theirs.id, userId: nId, account: nAccount, status: 'pending' },
    ]);
    expect(byId(unique.id).receiptMatches).toEqual([]);

    // The reviewer's answer carries the flag too, and it stays after the review.
    const approved = ok(await c.call('admin/approveDeposit', { id: mine.id }, admin), 'approve');
    expect(approved.receiptMatches).toEqual([
      { id: theirs.id, userId: nId, account: nAccount, status: 'pending' },
    ]);
    const all = ok(await c.call('admin/deposits', { status: 'all', pageSize: 200 }, admin), 'all');
    expect(all.items.find((d: { id: number }) => d.id === theirs.id).receiptMatches).toEqual([
      { id: mine.id, userId: mId, account: mAccount, status: 'approved' },
    ]);
  });
});
