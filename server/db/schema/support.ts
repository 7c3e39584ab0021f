/**
 * Schema of the support area (server/modules/support, migration 0019): customer service,
 * `support_conversations` (one per member) and their `support_messages`.
 */
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { SUPPORT_SENDERS, SUPPORT_STATUSES } from '../../../contract/support';
import { createdAt, oneOf } from './columns';
import { users } from './auth';
import { uploads } from './identity';

/** A member's support conversation (one per member) with the unread counts of both sides. */
export const supportConversations = pgTable(
  'support_conversations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .unique('support_conversations_user_uq')
      .references(() => users.id),
    /** contract/support.ts SUPPORT_STATUSES */
    status: text('status', { enum: SUPPORT_STATUSES }).notNull().default('open'),
    assignedTo: integer('assigned_to').references(() => users.id),
    memberUnread: integer('member_unread').notNull().default(0),
    operatorUnread: integer('operator_unread').notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_conversations_status_idx').on(t.status, t.lastMessageAt),
    check('support_conversations_status_check', oneOf(t.status, SUPPORT_STATUSES)),
    check('support_conversations_unread_check', sql`${t.memberUnread} >= 0 and ${t.operatorUnread} >= 0`),
  ],
);

/** A support message: text or an upload (purpose `support`), by the member or an operator. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => supportConversations.id),
    /** contract/support.ts SUPPORT_SENDERS */
    sender: text('sender', { enum: SUPPORT_SENDERS }).notNull(),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    text: text('text'),
    uploadId: text('upload_id').references(() => uploads.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_messages_conversation_idx').on(t.conversationId, t.id),
    check('support_messages_sender_check', oneOf(t.sender, SUPPORT_SENDERS)),
    check('support_messages_content_check', sql`${t.text} is not null or ${t.uploadId} is not null`),
  ],
);
