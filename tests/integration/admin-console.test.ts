/**
 * The operator console (issue 4 item 8, less the money queues) and the account flags of
 * product-spec §6: flags enforced at login, on existing sessions and on trading; who may set
 * whose flags, with an audit entry; site settings validated by name and served by common/config;
 * the audit log and the ledger listing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessions, users } from '../../server/db/schema';
import { ensureMemberAccounts, move, post } from '../../server/modules/ledger/ledger';
import { OPERATOR, startHarness, type Harness } from './harness';

let h: Harness;
let dataDir: string;
let admin: string;
let adminId: number;

const userId = async (account: string) =>
  (await h.database.db.select({ id: users.id }).from(users).where(eq(users.account, account)))[0]!.id;

const login = (account: string, password = 'password123') => h.call('user/login', { account, password });

/** A console user with role `operator` (made a member first, then promoted in the database). */
async function operator(account: string): Promise<{ token: string; id: number }> {
  await h.register(account);
  const id = await userId(account);
  await h.database.db.update(users).set({ role: 'operator' }).where(eq(users.id, id));
  const r = await h.call('admin/login', { account, password: 'password123' });
  expect(r.body.status, JSON.stringify(r.body)).toBe(1);
  return { token: r.body.data.token, id };
}

const auditCount = async () => (await h.database.db.select({ n: count() }).from(auditLog))[0]!.n;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'admin-console-test-'));
  h = await startHarness({ dataDir });
  admin = await h.operatorToken();
  adminId = await userId(OPERATOR.account);
});
afterAll(async () => {
  await h?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('account flags', () => {
  const setFlags = (id: number, flags: object, token = admin) =>
    h.call('admin/setUserFlags', { id, reason: 'test', ...flags }, token);

  it('disabled: login refused (accountDisabled) and the existing session ends', async () => {
    const token = await h.register('0921000001');
    const id = await userId('0921000001');
    const r = await setFlags(id, { disabled: true });
    expect(r.body).toMatchObject({ status: 1, data: { id, disabled: true, frozen: false } });
    expect((await h.call('user/info', {}, token)).http).toBe(401);
    const l = await login('0921000001');
    expect([l.http, l.body.msg]).toEqual([403, 'accountDisabled']);
    // A wrong password still says only "wrong account or password".
    expect((await login('0921000001', 'wrongpass1')).body.msg).toBe('wrongCredentials');

    await setFlags(id, { disabled: false });
    expect((await login('0921000001')).body.status).toBe(1);
  });

  it('a session of a disabled user is refused even if it were still stored', async () => {
    const token = await h.register('0921000002');
    const id = await userId('0921000002');
    await h.database.db.update(users).set({ disabled: true }).where(eq(users.id, id));
    expect(await h.services.sessions.authenticate(h.database.db, token)).toBeNull();
    expect((await h.call('user/info', {}, token)).http).toBe(401);
  });

  it('login banned or frozen: login refused with accountFrozen', async () => {
    const a = await h.register('0921000003');
    const aId = await userId('0921000003');
    await setFlags(aId, { loginBanned: true });
    expect((await h.call('user/info', {}, a)).http).toBe(401);
    const l1 = await login('0921000003');
    expect([l1.http, l1.body.msg]).toEqual([403, 'accountFrozen']);

    await h.register('0921000004');
    await setFlags(await userId('0921000004'), { frozen: true });
    const l2 = await login('0921000004');
    expect([l2.http, l2.body.msg]).toEqual([403, 'accountFrozen']);
  });

  it('a flag change applies to the very next request of a session in use (no stale cached session)', async () => {
    const t = await h.register('0921000015');
    const tId = await userId('0921000015');
    const order = { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 1 };
    // The session is in use (read and cached) before each change.
    expect((await h.call('user/info', {}, t)).http).toBe(200);
    await setFlags(tId, { tradeBanned: true });
    const banned = await h.call('trade/placeOrder', order, t);
    expect([banned.http, banned.body.msg]).toEqual([403, 'cannotWithdrawOrTrade']);
    await setFlags(tId, { tradeBanned: false });
    const again = await h.call('trade/placeOrder', order, t);
    expect(again.body.msg).not.toBe('cannotWithdrawOrTrade');
    await setFlags(tId, { disabled: true });
    expect((await h.call('user/info', {}, t)).http).toBe(401);
  });

  it('trade banned or frozen: trading refused, the rest works; withdrawals barred for frozen too', async () => {
    const t = await h.register('0921000005');
    const tId = await userId('0921000005');
    await setFlags(tId, { tradeBanned: true });
    const order = { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 1 };
    const placed = await h.call('trade/placeOrder', order, t);
    expect([placed.http, placed.body.msg]).toEqual([403, 'cannotWithdrawOrTrade']);
    expect((await h.call('user/info', {}, t)).http).toBe(200);
    expect((await login('0921000005')).body.status).toBe(1);
    expect(await h.services.sessions.authenticate(h.database.db, t)).toMatchObject({
      tradeBanned: true,
      withdrawBanned: false,
    });

    const f = await h.register('0921000006');
    await setFlags(await userId('0921000006'), { frozen: true });
    const p2 = await h.call('trade/placeOrder', order, f);
    expect([p2.http, p2.body.msg]).toEqual([403, 'cannotWithdrawOrTrade']);
    expect(await h.services.sessions.authenticate(h.database.db, f)).toMatchObject({
      frozen: true,
      tradeBanned: true,
      withdrawBanned: true,
    });

    const w = await h.register('0921000007');
    await setFlags(await userId('0921000007'), { withdrawBanned: true });
    expect(await h.services.sessions.authenticate(h.database.db, w)).toMatchObject({
      withdrawBanned: true,
      tradeBanned: false,
    });
  });
});

describe('admin/setUserFlags', () => {
  it('changes only the given flags and writes an audit entry with before, after and reason', async () => {
    await h.register('0922000001');
    const id = await userId('0922000001');
    const before = await auditCount();
    const r = await h.call('admin/setUserFlags', { id, withdrawBanned: true, reason: 'chargeback' }, admin);
    expect(r.body.data).toMatchObject({
      id,
      account: '0922000001',
      disabled: false,
      frozen: false,
      loginBanned: false,
      withdrawBanned: true,
      tradeBanned: false,
      fundsPasswordLocked: false,
      kycStatus: 'unverified',
    });
    expect(await auditCount()).toBe(before + 1);
    const log = await h.call('admin/auditLog', { page: 1, pageSize: 1 }, admin);
    const entry = log.body.data.items[0];
    expect(entry).toMatchObject({
      actorUserId: adminId,
      actorAccount: OPERATOR.account,
      action: 'user.flags',
      targetType: 'user',
      targetId: String(id),
      reason: 'chargeback',
    });
    expect(JSON.parse(entry.before)).toEqual({
      disabled: false,
      frozen: false,
      loginBanned: false,
      withdrawBanned: false,
      tradeBanned: false,
    });
    expect(JSON.parse(entry.after)).toMatchObject({ withdrawBanned: true, frozen: false });
  });

  it('needs a reason; refuses one’s own flags, an operator changing an operator or admin, unknown users', async () => {
    await h.register('0922000002');
    const member = await userId('0922000002');
    const opA = await operator('0929000001');
    const opB = await operator('0929000002');
    const before = await auditCount();
    const snapshot = await h.database.db.select().from(users).orderBy(users.id);

    const noReason = await h.call('admin/setUserFlags', { id: member, frozen: true }, admin);
    expect(noReason.http).toBe(400);
    const blank = await h.call('admin/setUserFlags', { id: member, frozen: true, reason: '   ' }, admin);
    expect(blank.http).toBe(400);
    const noFlag = await h.call('admin/setUserFlags', { id: member, reason: 'nothing' }, admin);
    expect([noFlag.http, noFlag.body.msg]).toEqual([400, 'parameterError']);
    const self = await h.call('admin/setUserFlags', { id: opA.id, frozen: true, reason: 'x' }, opA.token);
    expect([self.http, self.body.msg]).toEqual([403, 'forbidden']);
    const adminSelf = await h.call('admin/setUserFlags', { id: adminId, disabled: true, reason: 'x' }, admin);
    expect([adminSelf.http, adminSelf.body.msg]).toEqual([403, 'forbidden']);
    const peer = await h.call('admin/setUserFlags', { id: opB.id, disabled: true, reason: 'x' }, opA.token);
    expect([peer.http, peer.body.msg]).toEqual([403, 'forbidden']);
    const upward = await h.call(
      'admin/setUserFlags',
      { id: adminId, disabled: true, reason: 'x' },
      opA.token,
    );
    expect([upward.http, upward.body.msg]).toEqual([403, 'forbidden']);
    const missing = await h.call('admin/setUserFlags', { id: 999_999, frozen: true, reason: 'x' }, admin);
    expect([missing.http, missing.body.msg]).toEqual([404, 'accountNotFound']);
    const asMember = await h.call(
      'admin/setUserFlags',
      { id: member, frozen: true, reason: 'x' },
      await login('0922000002').then((r) => r.body.data.token),
    );
    expect(asMember.http).toBe(403);

    expect(await auditCount()).toBe(before);
    expect(await h.database.db.select().from(users).orderBy(users.id)).toEqual(snapshot);

    // An operator may set a member's flags; an admin may set an operator's.
    expect(
      (await h.call('admin/setUserFlags', { id: member, tradeBanned: true, reason: 'x' }, opA.token)).body
        .status,
    ).toBe(1);
    const byAdmin = await h.call(
      'admin/setUserFlags',
      { id: opB.id, loginBanned: true, reason: 'left' },
      admin,
    );
    expect(byAdmin.body).toMatchObject({ status: 1, data: { role: 'operator', loginBanned: true } });
    const [left] = await h.database.db
      .select({ n: count() })
      .from(sessions)
      .where(eq(sessions.userId, opB.id));
    expect(left!.n).toBe(0);
    expect((await h.call('admin/users', {}, opB.token)).http).toBe(401);
  });

  it('admin/users lists flags, the funds-password lock and the KYC status', async () => {
    const r = await h.call('admin/users', { q: '0922000001' }, admin);
    expect(r.body.data.total).toBe(1);
    expect(r.body.data.items[0]).toMatchObject({
      account: '0922000001',
      withdrawBanned: true,
      fundsPasswordLocked: false,
      kycStatus: 'unverified',
      availableMinor: 0,
    });
  });
});

describe('site settings', () => {
  const save = (name: string, value: string, token = admin) =>
    h.call('admin/saveConfig', { name, value }, token);
  const configMap = async () =>
    Object.fromEntries(
      (
        (await h.call('common/config', { type: 'all' })).body.data as Array<{ name: string; value: string }>
      ).map((i) => [i.name, i.value]),
    );

  it('common/config serves the defaults merged with the server facts', async () => {
    const c = await configMap();
    expect(c).toMatchObject({
      title: 'TW Trade',
      logo: '/logo.svg',
      depositOpen: '09:30',
      depositClose: '19:30',
      depositWeekdaysOnly: 'true',
      depositHolidaysClosed: 'true',
      currency: 'TWD',
    });
    expect(Number(c.withdrawMinMinor)).toBeGreaterThan(0);
    expect(c.leverages).toMatch(/^\d+(,\d+)*$/);
    const listed = await h.call('admin/config', {}, admin);
    expect(listed.body.data.map((i: { name: string }) => i.name)).toEqual([
      'title',
      'logo',
      'depositOpen',
      'depositClose',
      'depositWeekdaysOnly',
      'depositHolidaysClosed',
      'withdrawMinMinor',
      'withdrawMaxMinor',
    ]);
  });

  it('refuses invalid values by name with parameterError and writes nothing', async () => {
    const bad: Array<[string, string]> = [
      ['depositOpen', '9:30'],
      ['depositOpen', '24:30'],
      ['depositOpen', '10:60'],
      ['depositOpen', '20:00'], // not before the close (19:30)
      ['depositOpen', '19:30'],
      ['depositClose', '09:00'], // not after the open (09:30)
      ['depositClose', '25:00'],
      ['depositWeekdaysOnly', 'yes'],
      ['depositHolidaysClosed', 'TRUE'],
      ['withdrawMinMinor', '0'],
      ['withdrawMinMinor', '-5'],
      ['withdrawMinMinor', '1.5'],
      ['withdrawMinMinor', '1e6'],
      ['withdrawMinMinor', '9007199254740992'],
      ['withdrawMinMinor', '900000000000'], // above the max
      ['withdrawMaxMinor', '100'], // below the min
      ['title', 'x'.repeat(61)],
      ['title', 'a\u0007b'],
      ['logo', 'logo.svg'],
      ['logo', '//evil.example/logo.svg'],
      ['logo', '/\\evil.example/logo.svg'],
      ['logo', 'http://cdn.example/logo.svg'],
      ['logo', 'javascript:alert(1)'],
      ['logo', '/logo .svg'],
    ];
    const before = await auditCount();
    const c0 = await configMap();
    for (const [name, value] of bad) {
      const r = await save(name, value);
      expect([name, value, r.http, r.body.msg]).toEqual([name, value, 400, 'parameterError']);
    }
    const unknown = await save('leverages', '1,100');
    expect(unknown.http).toBe(400);
    expect(await auditCount()).toBe(before);
    expect(await configMap()).toEqual(c0);
  });

  it('saves valid values, serves them, and audits before and after', async () => {
    const good: Array<[string, string]> = [
      ['title', '台股通'],
      ['logo', 'https://cdn.example.com/logo.png'],
      ['logo', '/brand/logo.png'],
      ['depositClose', '24:00'],
      ['depositOpen', '00:00'],
      ['depositWeekdaysOnly', 'false'],
      ['withdrawMaxMinor', String(Number.MAX_SAFE_INTEGER)],
      ['withdrawMinMinor', '100'],
    ];
    for (const [name, value] of good) {
      const r = await save(name, value);
      expect([name, r.body.status]).toEqual([name, 1]);
      expect(r.body.data).toContainEqual({ name, value });
    }
    const c = await configMap();
    expect(c).toMatchObject({
      title: '台股通',
      logo: '/brand/logo.png',
      depositOpen: '00:00',
      depositClose: '24:00',
      depositWeekdaysOnly: 'false',
      withdrawMinMinor: '100',
    });
    const log = await h.call('admin/auditLog', { page: 1, pageSize: 1 }, admin);
    expect(log.body.data.items[0]).toMatchObject({
      action: 'config.update',
      targetType: 'site_config',
      targetId: 'withdrawMinMinor',
    });
    expect(JSON.parse(log.body.data.items[0].after)).toEqual({ name: 'withdrawMinMinor', value: '100' });
    const titleEntry = (
      await h.call('admin/auditLog', { page: 1, pageSize: 50 }, admin)
    ).body.data.items.find((e: { targetId: string }) => e.targetId === 'title');
    expect(JSON.parse(titleEntry.before)).toEqual({ name: 'title', value: 'TW Trade' });
  });
});

describe('admin/auditLog', () => {
  it('lists entries newest first with the actor’s account, paged', async () => {
    const op = await operator('0929000003');
    await h.register('0923000001');
    await h.call(
      'admin/setUserFlags',
      { id: await userId('0923000001'), frozen: true, reason: 'r1' },
      op.token,
    );
    await h.call(
      'admin/setUserFlags',
      { id: await userId('0923000001'), frozen: false, reason: 'r2' },
      admin,
    );
    const page1 = await h.call('admin/auditLog', { page: 1, pageSize: 2 }, op.token);
    expect(page1.body.data.total).toBe(await auditCount());
    const [newest, older] = page1.body.data.items;
    expect(newest).toMatchObject({ actorAccount: OPERATOR.account, reason: 'r2' });
    expect(older).toMatchObject({ actorAccount: '0929000003', actorUserId: op.id, reason: 'r1' });
    expect(newest.id).toBeGreaterThan(older.id);
    const page2 = await h.call('admin/auditLog', { page: 2, pageSize: 2 }, op.token);
    expect(page2.body.data.items[0].id).toBeLessThan(older.id);
  });
});

describe('admin/ledger', () => {
  it('lists transactions newest first with labelled postings, filtered by user', async () => {
    await h.register('0924000001');
    await h.register('0924000002');
    const a = await userId('0924000001');
    const b = await userId('0924000002');
    const ids: number[] = [];
    await h.database.db.transaction(async (tx) => {
      await ensureMemberAccounts(tx, a);
      ids.push(
        await post(tx, {
          type: 'deposit',
          refType: 'deposit',
          refId: 'test-1',
          actorUserId: adminId,
          postings: move({ platform: 'bank_clearing' }, { userId: a, purpose: 'available' }, 500_000),
        }),
      );
      ids.push(
        await post(tx, {
          type: 'deposit',
          postings: move({ platform: 'bank_clearing' }, { userId: b, purpose: 'available' }, 700_000),
        }),
      );
    });

    const all = await h.call('admin/ledger', { page: 1, pageSize: 2 }, admin);
    expect(all.body.data.items.map((t: { id: number }) => t.id)).toEqual([ids[1], ids[0]]);
    expect(all.body.data.items[1]).toMatchObject({
      type: 'deposit',
      ref: 'deposit:test-1',
      actorUserId: adminId,
      postings: [
        { account: 'platform bank_clearing TWD', currency: 'TWD', amountMinor: -500_000 },
        { account: `user ${a} available TWD`, currency: 'TWD', amountMinor: 500_000 },
      ],
    });

    const onlyA = await h.call('admin/ledger', { userId: a }, admin);
    expect(onlyA.body.data.total).toBe(1);
    expect(onlyA.body.data.items[0].id).toBe(ids[0]);
    const none = await h.call('admin/ledger', { userId: 999_999 }, admin);
    expect(none.body.data).toMatchObject({ items: [], total: 0 });

    const total = await h.database.db.execute(sql`select count(*)::int as n from ledger_transactions`);
    const rows =
      (total as unknown as { rows?: Array<{ n: number }> }).rows ??
      (total as unknown as Array<{ n: number }>);
    expect(all.body.data.total).toBe(rows[0]!.n);
  });
});
