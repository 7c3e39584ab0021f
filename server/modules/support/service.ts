/**
 * Support conversations and their messages (contract/support.ts): one conversation per member,
 * created by its first message. Every change runs in one transaction with the conversation row
 * locked, so concurrent messages count their unread increments exactly. A member reaches only
 * its own conversation (looked up by its user id, never by an id it sends); operators reach any.
 *
 * Units: times epoch ms in the DTOs.
 */
import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type {
  AdminConversation,
  Conversation,
  SupportMessage,
  SupportStatus,
} from '../../../contract/support';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { supportConversations, supportMessages, uploads, users } from '../../db/schema';
import { audit } from '../common/audit';
import type { AuthUser } from '../common/context';
import { fail } from '../common/errors';
import { pageOf } from '../common/paging';

type ConversationRow = typeof supportConversations.$inferSelect;
type MessageRow = typeof supportMessages.$inferSelect;

/** A conversation as both sides see it, plus its member (for routing live events). */
export interface ConversationView {
  memberId: number;
  conversation: Conversation;
}

export const messageDto = (m: MessageRow): SupportMessage => ({
  id: m.id,
  conversationId: m.conversationId,
  from: m.sender,
  text: m.text,
  uploadId: m.uploadId,
  createdAt: m.createdAt.getTime(),
});

const assignee = alias(users, 'assignee');

/** The conversation with its assigned operator's account; null when there is none. */
export async function conversationView(db: Db | Tx, where: SQL): Promise<ConversationView | null> {
  const [row] = await db
    .select({ c: supportConversations, assignedTo: assignee.account })
    .from(supportConversations)
    .leftJoin(assignee, eq(assignee.id, supportConversations.assignedTo))
    .where(where);
  if (!row) return null;
  return { memberId: row.c.userId, conversation: conversationDto(row.c, row.assignedTo) };
}

function conversationDto(c: ConversationRow, assignedTo: string | null): Conversation {
  return {
    id: c.id,
    status: c.status,
    assignedTo,
    memberUnread: c.memberUnread,
    operatorUnread: c.operatorUnread,
    lastMessageAt: c.lastMessageAt?.getTime() ?? null,
  };
}

const byId = (id: number) => eq(supportConversations.id, id);
export const byMember = (userId: number) => eq(supportConversations.userId, userId);

/** What a message carries (validated by contract/support.ts). */
export interface MessageInput {
  /** Operators: the conversation answered; members: ignored (always their own). */
  conversationId?: number;
  text?: string;
  uploadId?: string;
}

/** A new message and the conversation after it. */
export interface Posted extends ConversationView {
  message: SupportMessage;
}

/**
 * Writes a message. A member's goes to its own conversation (created on the first message),
 * raises `operatorUnread` and reopens a resolved conversation; an operator's goes to
 * `conversationId` and raises `memberUnread`. An image is an upload of the member's with
 * purpose `support`; operators send text.
 * @throws parameterError (400) for an operator without conversationId or with an image, or an
 *   image that is not the member's `support` upload; notFound (404) for no such conversation
 */
export async function postMessage(db: Db, author: AuthUser, input: MessageInput): Promise<Posted> {
  const fromMember = author.role === 'member';
  if (!fromMember && (input.conversationId === undefined || input.uploadId !== undefined))
    throw fail('parameterError');
  if (input.text === undefined && input.uploadId === undefined) throw fail('parameterError');
  return db.transaction(async (tx) => {
    let conversationId: number;
    if (fromMember) {
      await tx.insert(supportConversations).values({ userId: author.id }).onConflictDoNothing();
      const [c] = await tx.select().from(supportConversations).where(byMember(author.id)).for('update');
      conversationId = c!.id;
      if (input.uploadId !== undefined) {
        const [u] = await tx
          .select({ id: uploads.id })
          .from(uploads)
          .where(
            and(
              eq(uploads.id, input.uploadId),
              eq(uploads.userId, author.id),
              eq(uploads.purpose, 'support'),
            ),
          );
        if (!u) throw fail('parameterError');
      }
    } else {
      const [c] = await tx
        .select()
        .from(supportConversations)
        .where(byId(input.conversationId!))
        .for('update');
      if (!c) throw fail('notFound');
      conversationId = c.id;
    }
    const [m] = await tx
      .insert(supportMessages)
      .values({
        conversationId,
        sender: fromMember ? 'member' : 'operator',
        authorId: author.id,
        text: input.text ?? null,
        uploadId: input.uploadId ?? null,
      })
      .returning();
    await tx
      .update(supportConversations)
      .set(
        fromMember
          ? {
              status: 'open',
              operatorUnread: sql`${supportConversations.operatorUnread} + 1`,
              lastMessageAt: m!.createdAt,
            }
          : { memberUnread: sql`${supportConversations.memberUnread} + 1`, lastMessageAt: m!.createdAt },
      )
      .where(byId(conversationId));
    const view = (await conversationView(tx, byId(conversationId)))!;
    return { ...view, message: messageDto(m!) };
  });
}

/**
 * A page of a conversation's messages, newest first, older than `beforeId` when given.
 * @returns the items and whether older ones exist
 */
export async function historyPage(
  db: Db,
  conversationId: number,
  beforeId: number | undefined,
  limit: number,
): Promise<{ items: SupportMessage[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(supportMessages)
    .where(
      and(
        eq(supportMessages.conversationId, conversationId),
        beforeId === undefined ? undefined : lt(supportMessages.id, beforeId),
      ),
    )
    .orderBy(desc(supportMessages.id))
    .limit(limit + 1);
  return { items: rows.slice(0, limit).map(messageDto), hasMore: rows.length > limit };
}

/** Sets the reader's unread count to 0 (`member`: replies read; `operator`: member messages). */
export async function markRead(
  db: Db,
  where: SQL,
  side: 'member' | 'operator',
): Promise<ConversationView | null> {
  await db
    .update(supportConversations)
    .set(side === 'member' ? { memberUnread: 0 } : { operatorUnread: 0 })
    .where(where);
  return conversationView(db, where);
}

/**
 * Assigns a conversation to the operator, or marks it resolved (a member message reopens it);
 * audited (`support.assign`, `support.resolve`).
 * @throws notFound (404) for no such conversation
 */
export async function operatorAction(
  db: Db,
  operatorId: number,
  conversationId: number,
  action: 'assign' | 'resolve',
): Promise<ConversationView> {
  return db.transaction(async (tx) => {
    const before = await conversationView(tx, byId(conversationId));
    if (!before) throw fail('notFound');
    await tx
      .update(supportConversations)
      .set(action === 'assign' ? { assignedTo: operatorId } : { status: 'resolved' as SupportStatus })
      .where(byId(conversationId));
    const after = (await conversationView(tx, byId(conversationId)))!;
    await audit(tx, {
      actorUserId: operatorId,
      action: action === 'assign' ? 'support.assign' : 'support.resolve',
      targetType: 'supportConversation',
      targetId: conversationId,
      before: before.conversation,
      after: after.conversation,
    });
    return after;
  });
}

/** Conversations for the console, most recent message first, with the member and last text. */
export async function listConversations(
  db: Db,
  status: SupportStatus | 'all',
  page: number,
  pageSize: number,
): Promise<{ items: AdminConversation[]; total: number }> {
  const where = status === 'all' ? undefined : eq(supportConversations.status, status);
  const lastText = sql<string | null>`(select ${supportMessages.text} from ${supportMessages}
    where ${supportMessages.conversationId} = ${supportConversations.id}
    order by ${supportMessages.id} desc limit 1)`.as('last_text');
  const rows = db
    .select({ c: supportConversations, account: users.account, assignedTo: assignee.account, lastText })
    .from(supportConversations)
    .innerJoin(users, eq(users.id, supportConversations.userId))
    .leftJoin(assignee, eq(assignee.id, supportConversations.assignedTo))
    .where(where)
    .orderBy(sql`${supportConversations.lastMessageAt} desc nulls last`, desc(supportConversations.id));
  const p = await pageOf(db, rows, { table: supportConversations, where }, { page, pageSize });
  return {
    items: p.items.map((r) => ({
      ...conversationDto(r.c, r.assignedTo),
      account: r.account,
      lastText: r.lastText,
    })),
    total: p.total,
  };
}
