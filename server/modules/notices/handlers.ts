/**
 * notice/* and the operator's notice endpoints (contract/notices.ts): the member's inbox of
 * announcements (published operator notices, read per member in `notice_reads`) and account
 * notices (`member_notices`, written by notify.ts), unread counts, the detail that marks one
 * read; the operator's list, create/edit and publish/withdraw (each audited).
 */
import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AdminNotice, Notice, NoticeParams } from '../../../contract/notices';
import type { Db, Tx } from '../../db/client';
import { memberNotices, noticeReads, notices } from '../../db/schema';
import { audit } from '../common/audit';
import { requireUser, type Handlers } from '../common/context';
import { fail } from '../common/errors';
import { pageOf } from '../common/paging';

type NoticeRow = typeof notices.$inferSelect;
type MemberNoticeRow = typeof memberNotices.$inferSelect;

const announcementDto = (n: NoticeRow, read: boolean): Notice => ({
  id: `a${n.id}`,
  tab: 'announcements',
  kind: 'announcement',
  title: { tw: n.titleTw, en: n.titleEn },
  body: { tw: n.bodyTw, en: n.bodyEn },
  params: {},
  createdAt: (n.publishedAt ?? n.createdAt).getTime(),
  read,
});

const accountDto = (m: MemberNoticeRow): Notice => ({
  id: `m${m.id}`,
  tab: 'account',
  kind: m.kind,
  title: null,
  body: null,
  params: JSON.parse(m.params) as NoticeParams,
  createdAt: m.createdAt.getTime(),
  read: m.readAt !== null,
});

/** `exists (a read of notice n by the member)`, as a boolean column. */
const readBy = (userId: number) =>
  sql<boolean>`exists (select 1 from ${noticeReads} where ${noticeReads.noticeId} = ${notices.id} and ${noticeReads.userId} = ${userId})`;

/** Unread announcements and account notices of a member. */
export async function unreadNotices(db: Db | Tx, userId: number) {
  const [a] = await db
    .select({ n: count() })
    .from(notices)
    .where(and(isNotNull(notices.publishedAt), sql`not ${readBy(userId)}`));
  const [m] = await db
    .select({ n: count() })
    .from(memberNotices)
    .where(and(eq(memberNotices.userId, userId), isNull(memberNotices.readAt)));
  return { announcements: a!.n, account: m!.n, total: a!.n + m!.n };
}

async function adminView(db: Db | Tx, id: number): Promise<AdminNotice> {
  const [n] = await db.select().from(notices).where(eq(notices.id, id));
  if (!n) throw fail('notFound');
  const [r] = await db.select({ n: count() }).from(noticeReads).where(eq(noticeReads.noticeId, id));
  return {
    id: n.id,
    title: { tw: n.titleTw, en: n.titleEn },
    body: { tw: n.bodyTw, en: n.bodyEn },
    publishedAt: n.publishedAt?.getTime() ?? null,
    reads: r!.n,
    createdAt: n.createdAt.getTime(),
  };
}

export const noticeHandlers: Pick<
  Handlers,
  | 'notice/list'
  | 'notice/detail'
  | 'notice/unread'
  | 'admin/notices'
  | 'admin/saveNotice'
  | 'admin/publishNotice'
> = {
  async 'notice/list'(body, ctx) {
    const user = requireUser(ctx);
    if (body.tab === 'announcements') {
      const where = isNotNull(notices.publishedAt);
      const rows = ctx.db
        .select({ n: notices, read: readBy(user.id) })
        .from(notices)
        .where(where)
        .orderBy(desc(notices.publishedAt), desc(notices.id));
      const page = await pageOf(ctx.db, rows, { table: notices, where }, body);
      return { ...page, items: page.items.map((r) => announcementDto(r.n, r.read)) };
    }
    const where = eq(memberNotices.userId, user.id);
    const rows = ctx.db.select().from(memberNotices).where(where).orderBy(desc(memberNotices.id));
    const page = await pageOf(ctx.db, rows, { table: memberNotices, where }, body);
    return { ...page, items: page.items.map(accountDto) };
  },

  /** @throws notFound (404): no such published announcement, or not the caller's account notice. */
  async 'notice/detail'(body, ctx) {
    const user = requireUser(ctx);
    const id = Number(body.id.slice(1));
    if (body.id.startsWith('a')) {
      const [n] = await ctx.db
        .select()
        .from(notices)
        .where(and(eq(notices.id, id), isNotNull(notices.publishedAt)));
      if (!n) throw fail('notFound');
      await ctx.db.insert(noticeReads).values({ noticeId: id, userId: user.id }).onConflictDoNothing();
      return announcementDto(n, true);
    }
    const [m] = await ctx.db
      .update(memberNotices)
      .set({ readAt: sql`coalesce(${memberNotices.readAt}, now())` })
      .where(and(eq(memberNotices.id, id), eq(memberNotices.userId, user.id)))
      .returning();
    if (!m) throw fail('notFound');
    return accountDto(m);
  },

  async 'notice/unread'(_body, ctx) {
    return unreadNotices(ctx.db, requireUser(ctx).id);
  },

  async 'admin/notices'(body, ctx) {
    const rows = ctx.db.select({ id: notices.id }).from(notices).orderBy(desc(notices.id));
    const page = await pageOf(ctx.db, rows, { table: notices }, body);
    const items = [];
    for (const r of page.items) items.push(await adminView(ctx.db, r.id));
    return { ...page, items };
  },

  /** @throws notFound (404) when editing a notice that does not exist. */
  async 'admin/saveNotice'(body, ctx) {
    const op = requireUser(ctx);
    const text = { titleTw: body.titleTw, titleEn: body.titleEn, bodyTw: body.bodyTw, bodyEn: body.bodyEn };
    return ctx.db.transaction(async (tx) => {
      let id = body.id;
      let before: AdminNotice | null = null;
      if (id === undefined) {
        const [row] = await tx
          .insert(notices)
          .values({ ...text, createdBy: op.id })
          .returning({ id: notices.id });
        id = row!.id;
      } else {
        before = await adminView(tx, id);
        await tx.update(notices).set(text).where(eq(notices.id, id));
      }
      const after = await adminView(tx, id);
      await audit(tx, {
        actorUserId: op.id,
        action: before ? 'notice.edit' : 'notice.create',
        targetType: 'notice',
        targetId: id,
        before,
        after,
      });
      return after;
    });
  },

  /** @throws notFound (404) for no such notice. */
  async 'admin/publishNotice'(body, ctx) {
    const op = requireUser(ctx);
    return ctx.db.transaction(async (tx) => {
      const before = await adminView(tx, body.id);
      await tx
        .update(notices)
        .set({
          publishedAt: body.published ? sql`coalesce(${notices.publishedAt}, now())` : null,
        })
        .where(eq(notices.id, body.id));
      const after = await adminView(tx, body.id);
      await audit(tx, {
        actorUserId: op.id,
        action: body.published ? 'notice.publish' : 'notice.withdraw',
        targetType: 'notice',
        targetId: body.id,
        before,
        after,
      });
      return after;
    });
  },
};
