/**
 * Schema of the notices area (server/modules/notices, migration 0019): operator `notices`
 * (announcements), `notice_reads` and the members' account notices, `member_notices`.
 */
import {
  bigserial,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { ACCOUNT_NOTICE_KINDS } from '../../../contract/notices';
import { createdAt, oneOf } from './columns';
import { users } from './auth';

/** An operator notice (announcement) in tw and en; visible to members while `publishedAt` is set. */
export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    titleTw: text('title_tw').notNull(),
    titleEn: text('title_en').notNull(),
    bodyTw: text('body_tw').notNull(),
    bodyEn: text('body_en').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('notices_published_idx').on(t.publishedAt)],
);

/** A member has read an announcement (absent: unread). */
export const noticeReads = pgTable(
  'notice_reads',
  {
    noticeId: integer('notice_id')
      .notNull()
      .references(() => notices.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'notice_reads_pk', columns: [t.noticeId, t.userId] }),
    index('notice_reads_user_idx').on(t.userId),
  ],
);

/** A member's account notice: a kind and its params (JSON text), worded by the client. */
export const memberNotices = pgTable(
  'member_notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/notices.ts ACCOUNT_NOTICE_KINDS */
    kind: text('kind', { enum: ACCOUNT_NOTICE_KINDS }).notNull(),
    params: text('params').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('member_notices_user_idx').on(t.userId, t.id),
    check('member_notices_kind_check', oneOf(t.kind, ACCOUNT_NOTICE_KINDS)),
  ],
);
