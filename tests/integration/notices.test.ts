/**
 * Notices (contract/notices.ts) through the HTTP API, on PGlite and PostgreSQL:
 * - an operator notice is invisible as a draft, unread for every member once published, read per
 *   member by opening it, and gone from the inbox when withdrawn;
 * - account notices come from real events in the same transaction: a deposit approval and a KYC
 *   rejection (kind + params, no sentence), an IPO draw (won / not won per applicant); a review
 *   that fails (a second approval) leaves no second notice;
 * - a member never opens another member's account notice (404).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { ipoOfferings, memberNotices } from '../../server/db/schema';
import { createOffering } from '../../server/modules/ipo/schedule';
import { idem, startHarness, type Harness } from './harness';
import { ensureVerified, pendingKycId, submitKyc, taiwanId } from './support/members';
import { injectClient } from './support/client';

let h: Harness;
let op: string;
beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
});
afterAll(async () => {
  await h?.close();
});

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const unread = (token: string) => ok('notice/unread', {}, token);
const list = (token: string, tab: 'announcements' | 'account') =>
  ok('notice/list', { tab, page: 1, pageSize: 50 }, token);

describe('operator notices', () => {
  let a: string;
  let b: string;
  let id: number;

  it('a draft is invisible; published it is unread for each member; opening reads it for that member only', async () => {
    a = await h.register('0931000001');
    b = await h.register('0931000002');
    const saved = await ok(
      'admin/saveNotice',
      {
        titleTw: '系統維護',
        titleEn: 'Maintenance',
        bodyTw: '週六 02:00 維護\n約一小時',
        bodyEn: 'Saturday 02:00\nabout an hour',
      },
      op,
    );
    id = saved.id;
    expect(saved.publishedAt).toBeNull();
    expect((await list(a, 'announcements')).items).toEqual([]);
    expect((await h.call('notice/detail', { id: `a${id}` }, a)).http).toBe(404);

    const published = await ok('admin/publishNotice', { id, published: true }, op);
    expect(published.publishedAt).toEqual(expect.any(Number));
    for (const t of [a, b]) expect(await unread(t)).toMatchObject({ announcements: 1 });
    const items = (await list(a, 'announcements')).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: `a${id}`,
      kind: 'announcement',
      title: { tw: '系統維護', en: 'Maintenance' },
      read: false,
    });

    const detail = await ok('notice/detail', { id: `a${id}` }, a);
    expect(detail).toMatchObject({ read: true, body: { en: 'Saturday 02:00\nabout an hour' } });
    expect(await unread(a)).toMatchObject({ announcements: 0 });
    expect(await unread(b)).toMatchObject({ announcements: 1 });
    expect((await list(a, 'announcements')).items[0].read).toBe(true);
    // Opening twice keeps one read.
    await ok('notice/detail', { id: `a${id}` }, a);
    expect((await ok('admin/notices', { page: 1, pageSize: 20 }, op)).items[0]).toMatchObject({
      id,
      reads: 1,
    });
  });

  it('an edit keeps it published; withdrawn it leaves every inbox', async () => {
    const edited = await ok(
      'admin/saveNotice',
      {
        id,
        titleTw: '系統維護（更新）',
        titleEn: 'Maintenance (updated)',
        bodyTw: '改為週日',
        bodyEn: 'Moved to Sunday',
      },
      op,
    );
    expect(edited.publishedAt).toEqual(expect.any(Number));
    expect((await list(b, 'announcements')).items[0].title.en).toBe('Maintenance (updated)');
    await ok('admin/publishNotice', { id, published: false }, op);
    expect((await list(b, 'announcements')).items).toEqual([]);
    expect(await unread(b)).toMatchObject({ announcements: 0 });
    expect(
      (
        await h.call(
          'admin/saveNotice',
          { id: 999_999, titleTw: 'x', titleEn: 'x', bodyTw: 'x', bodyEn: 'x' },
          op,
        )
      ).http,
    ).toBe(404);
  });
});

describe('account notices from real events', () => {
  it('a deposit approval writes one depositApproved notice with the amount; a second approval none', async () => {
    const token = await h.register('0931000003');
    // Deposits need a verified identity: the approval's own notice is read first.
    await ensureVerified(injectClient(h.app), op, token);
    const [kyc] = (await list(token, 'account')).items;
    expect(kyc).toMatchObject({ kind: 'kycApproved' });
    await ok('notice/detail', { id: kyc.id }, token);
    const depositId = await h.deposit(token, 123_456);
    expect(await unread(token)).toMatchObject({ account: 0 });
    await ok('admin/approveDeposit', { id: depositId }, op);
    const again = await h.call('admin/approveDeposit', { id: depositId }, op);
    expect(again.body.status).toBe(0);
    const items = (await list(token, 'account')).items.filter(
      (n: { kind: string }) => n.kind !== 'kycApproved',
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      tab: 'account',
      kind: 'depositApproved',
      title: null,
      params: { amountMinor: 123_456, currency: 'TWD' },
      read: false,
    });
    expect(await unread(token)).toEqual({ announcements: 0, account: 1, total: 1 });
    const opened = await ok('notice/detail', { id: items[0].id }, token);
    expect(opened.read).toBe(true);
    expect(await unread(token)).toMatchObject({ account: 0 });

    // Another member cannot open it.
    const other = await h.register('0931000004');
    expect((await h.call('notice/detail', { id: items[0].id }, other)).http).toBe(404);
    expect((await list(other, 'account')).items).toEqual([]);
  });

  it('a KYC rejection carries the reason; the notice exists exactly when the review committed', async () => {
    const c = injectClient(h.app);
    const token = await h.register('0931000005');
    await submitKyc(c, token, '王小明', taiwanId(931005));
    const kycId = await pendingKycId(c, op, '0931000005');
    await ok('admin/rejectKyc', { id: kycId, reason: 'blurred photo' }, op);
    expect((await h.call('admin/rejectKyc', { id: kycId, reason: 'again' }, op)).body.status).toBe(0);
    const userId = await h.userId('0931000005');
    const rows = await h.database.db.select().from(memberNotices).where(eq(memberNotices.userId, userId));
    expect(rows.map((r) => [r.kind, JSON.parse(r.params)])).toEqual([
      ['kycRejected', { reason: 'blurred photo' }],
    ]);
  });

  it('an IPO draw tells each applicant won or not won', async () => {
    const today = h.ipo.calendar.today();
    const offeringId = await createOffering(h.database.db, {
      source: 'test:notices',
      symbol: '2330',
      name: '台積電',
      marketType: '上市增資',
      priceMinor: 10_000,
      sharesOffered: 1000,
      sharesPerApplication: 1000,
      applyStartDay: today,
      realApplyStart: '2026-01-02',
      realDrawDate: '2026-01-08',
    });
    const applicants: string[] = [];
    for (const account of ['0931000006', '0931000007']) {
      const token = await h.fundedMember(account, 20_000_000);
      const r = await h.call('ipo/apply', { offeringId }, token, idem());
      expect(r.body.status).toBe(1);
      applicants.push(token);
    }
    for (let i = 0; i < 8; i++) {
      const [o] = await h.database.db.select().from(ipoOfferings).where(eq(ipoOfferings.id, offeringId));
      if (o!.stage === 'drawn') break;
      h.wall.now += REPLAY_DAY_MS;
      h.feed.tick();
      await h.ipo.run();
    }
    const kinds: string[] = [];
    for (const token of applicants) {
      const ipo = (await list(token, 'account')).items.filter((n: { kind: string }) =>
        n.kind.startsWith('ipo'),
      );
      expect(ipo).toHaveLength(1);
      expect(ipo[0].params).toMatchObject({ symbol: '2330', shares: 1000 });
      kinds.push(ipo[0].kind);
    }
    expect(kinds.sort()).toEqual(['ipoNotWon', 'ipoWon']);
    const ids = await Promise.all(['0931000006', '0931000007'].map((a) => h.userId(a)));
    for (const userId of ids) {
      const rows = await h.database.db
        .select()
        .from(memberNotices)
        .where(and(eq(memberNotices.userId, userId), eq(memberNotices.kind, 'ipoWon')));
      expect(rows.length).toBeLessThanOrEqual(1);
    }
  });
});
