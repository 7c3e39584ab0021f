/**
 * The member pages behind the remaining spec routes, through the HTTP API on both databases:
 * - `/user/agreement`, `/user/aboutUs` (common/page): the shipped text in both languages until an
 *   operator saves one language (admin/savePage, audited); a member cannot save; bodies keep
 *   their line breaks; anonymous visitors can read the agreement before registering;
 * - `/user/pj` (user/feedback): a member's rating is theirs only; the console sees every rating
 *   and the average;
 * - `/login/logon` → `/login/logon2` (password reset through the operator): the request answers
 *   the same for an unknown account and leaves no row; the operator's code works once, ends every
 *   session and replaces the password; a wrong code, an expired code and a used code answer
 *   `resetCodeInvalid`; five wrong codes expire the request.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, passwordResets } from '../../server/db/schema';
import { RESET_CODE_TTL_MS, RESET_MAX_FAILS } from '../../server/modules/auth/password-reset';
import { startHarness, type Harness } from './harness';

let h: Harness;
let op: string;

beforeAll(async () => {
  // Wrong reset codes count as failed logins; no waiting between them in this file.
  h = await startHarness({ loginFreeFailures: 20, loginMaxFailures: 30 });
  op = await h.operatorToken();
});
afterAll(() => h.close());

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token?: string) {
  const r = await h.call(name, body, token);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

describe('privacy agreement and about us', () => {
  it('serves the shipped text in both languages to anyone', async () => {
    const page = await ok('common/page', { name: 'agreement' });
    expect(page.texts.map((t: { lang: string }) => t.lang)).toEqual(['tw', 'en']);
    const [tw, en] = page.texts;
    expect(tw.title).toBe('隱私權政策與使用條款');
    expect(en.title).toBe('Privacy policy and terms of use');
    expect(en.body).toContain('Personal Data Protection Act');
    expect(tw.updatedAt).toBeNull();
  });

  it('an operator replaces one language, audited; the other keeps the shipped text', async () => {
    const body = 'First paragraph.\n\nSecond paragraph.';
    const saved = await ok('admin/savePage', { name: 'aboutUs', lang: 'en', title: 'About', body }, op);
    const en = saved.texts.find((t: { lang: string }) => t.lang === 'en');
    const tw = saved.texts.find((t: { lang: string }) => t.lang === 'tw');
    expect(en).toMatchObject({ title: 'About', body });
    expect(en.updatedAt).not.toBeNull();
    expect(tw.title).toBe('關於我們');
    expect((await ok('common/page', { name: 'aboutUs' })).texts[1].body).toBe(body);
    const audits = await h.database.db.select().from(auditLog).where(eq(auditLog.action, 'page.update'));
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0]!.before!).title).toBe('About us');
  });

  it('a member cannot save a page; an unknown page or an empty body is refused', async () => {
    const member = await h.register('0911000001');
    const r = await h.call('admin/savePage', { name: 'aboutUs', lang: 'tw', title: 'x', body: 'y' }, member);
    expect(r.http).toBe(403);
    expect((await h.call('common/page', { name: 'nope' })).http).toBe(400);
    const empty = await h.call('admin/savePage', { name: 'aboutUs', lang: 'tw', title: 'x', body: '  ' }, op);
    expect([empty.http, empty.body.msg]).toEqual([400, 'parameterError']);
  });
});

describe('rating the app (/user/pj)', () => {
  it("keeps each member's ratings to themselves and gives the console the average", async () => {
    const a = await h.register('0911000011');
    const b = await h.register('0911000012');
    await ok('user/feedback', { rating: 5, comment: 'fast\nand clear' }, a);
    await ok('user/feedback', { rating: 2 }, b);
    expect((await ok('user/myFeedback', {}, a)).map((f: { rating: number }) => f.rating)).toEqual([5]);
    expect((await ok('user/myFeedback', {}, b)).map((f: { comment: string }) => f.comment)).toEqual(['']);
    const all = await ok('admin/feedback', {}, op);
    expect([all.count, all.average]).toEqual([2, 3.5]);
    expect((await h.call('admin/feedback', {}, a)).http).toBe(403);
    expect((await h.call('user/feedback', { rating: 6 }, a)).http).toBe(400);
  });
});

describe('password reset through the operator', () => {
  const ACCOUNT = '0911000021';

  it('answers an unknown account like a known one and writes nothing for it', async () => {
    const before = await h.database.db.select().from(passwordResets);
    expect((await h.call('user/resetRequest', { account: '0911999999' })).body).toMatchObject({ status: 1 });
    expect(await h.database.db.select().from(passwordResets)).toEqual(before);
    const wrong = await h.call('user/resetPassword', {
      account: '0911999999',
      code: '123456',
      password: 'newpass123',
    });
    expect([wrong.http, wrong.body.msg]).toEqual([400, 'resetCodeInvalid']);
  });

  it('resets with the code read out on the call, once, and ends every session', async () => {
    const token = await h.register(ACCOUNT, 'oldpass123');
    await ok('user/resetRequest', { account: ACCOUNT });
    const [pending] = await ok('admin/passwordResets', {}, op);
    expect(pending).toMatchObject({ account: ACCOUNT, status: 'pending', realName: null });
    // Before the call nothing works.
    const early = await h.call('user/resetPassword', {
      account: ACCOUNT,
      code: '000000',
      password: 'newpass123',
    });
    expect(early.body.msg).toBe('resetCodeInvalid');
    const issued = await ok('admin/issueResetCode', { id: pending.id }, op);
    expect(issued.code).toMatch(/^\d{6}$/);
    const [row] = await h.database.db.select().from(passwordResets).where(eq(passwordResets.id, pending.id));
    expect(row!.codeHash).not.toContain(issued.code);

    await ok('user/resetPassword', { account: ACCOUNT, code: issued.code, password: 'newpass123' });
    expect((await h.call('user/info', {}, token)).http).toBe(401);
    expect((await h.call('user/login', { account: ACCOUNT, password: 'oldpass123' })).http).toBe(401);
    expect((await h.call('user/login', { account: ACCOUNT, password: 'newpass123' })).http).toBe(200);
    const again = await h.call('user/resetPassword', {
      account: ACCOUNT,
      code: issued.code,
      password: 'other1234',
    });
    expect(again.body.msg).toBe('resetCodeInvalid');
  });

  it('expires a code after its time and a request after five wrong codes', async () => {
    await ok('user/resetRequest', { account: ACCOUNT });
    const [open] = await ok('admin/passwordResets', {}, op);
    const first = await ok('admin/issueResetCode', { id: open.id }, op);
    h.wall.now += RESET_CODE_TTL_MS + 1;
    const late = await h.call('user/resetPassword', {
      account: ACCOUNT,
      code: first.code,
      password: 'late12345',
    });
    expect(late.body.msg).toBe('resetCodeInvalid');

    // The operator calls again and re-issues; then five wrong guesses end the request.
    const second = await ok('admin/issueResetCode', { id: open.id }, op);
    const wrong = String((Number(second.code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < RESET_MAX_FAILS; i++) {
      const r = await h.call('user/resetPassword', { account: ACCOUNT, code: wrong, password: 'guess1234' });
      expect(r.body.msg).toBe('resetCodeInvalid');
    }
    const [row] = await h.database.db.select().from(passwordResets).where(eq(passwordResets.id, open.id));
    expect(row!.status).toBe('expired');
    const right = await h.call('user/resetPassword', {
      account: ACCOUNT,
      code: second.code,
      password: 'right1234',
    });
    expect(right.body.msg).toBe('resetCodeInvalid');
    expect((await h.call('admin/issueResetCode', { id: open.id }, op)).http).toBe(404);
  });

  it('a member cannot list or issue codes', async () => {
    const member = await h.register('0911000031');
    expect((await h.call('admin/passwordResets', {}, member)).http).toBe(403);
    expect((await h.call('admin/issueResetCode', { id: 1 }, member)).http).toBe(403);
  });
});
