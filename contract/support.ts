/**
 * Customer service (product-spec home shortcut "customer service"; member screen `/user/service`,
 * a non-spec route, docs/glossary.md): one support conversation per member with the operators.
 *
 * - Messages are text, or an image the member uploaded with purpose `support` through the upload
 *   module (server/modules/identity/uploads.ts: content-detected type, decoded and re-encoded).
 * - Live delivery rides the market WebSocket `/ws` (contract/realtime.ts): after `{op:'auth',
 *   token}` a member receives the events of its own conversation and an operator those of every
 *   conversation; either sends with `{op:'say', …}`. The REST endpoints page the history (newest
 *   first, `beforeId` cursor) and do everything else (read, assign, resolve; sending too).
 * - Unread counts: `memberUnread` (operator messages the member has not read) and
 *   `operatorUnread` (member messages no operator has read); reading sets the reader's side to 0.
 * - Status: `open` until an operator resolves it; a new member message reopens it.
 *
 * Units: times epoch ms.
 */
import { z } from 'zod';
import { bigIdSchema, idSchema } from './ids';
import { pageQuery, paged } from './envelope';
import { uploadIdSchema } from './identity';

export const SUPPORT_STATUSES = ['open', 'resolved'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];
/** Who wrote a message. */
export const SUPPORT_SENDERS = ['member', 'operator'] as const;
export type SupportSender = (typeof SUPPORT_SENDERS)[number];

/** Longest message text (characters). */
export const SUPPORT_TEXT_MAX = 2_000;
/** Messages per history page at most. */
export const SUPPORT_PAGE_MAX = 100;

export const supportTextSchema = z.string().trim().min(1).max(SUPPORT_TEXT_MAX);

export const supportMessageSchema = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  from: z.enum(SUPPORT_SENDERS),
  text: z.string().nullable(),
  /** An image (GET /api/vue/upload/:id: the member who sent it and operators only). */
  uploadId: z.string().nullable(),
  createdAt: z.number().int(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

export const conversationSchema = z.object({
  id: z.number().int(),
  status: z.enum(SUPPORT_STATUSES),
  /** The assigned operator's account, or null. */
  assignedTo: z.string().nullable(),
  memberUnread: z.number().int(),
  operatorUnread: z.number().int(),
  lastMessageAt: z.number().int().nullable(),
});
export type Conversation = z.infer<typeof conversationSchema>;

/** A message body: text, an image, or both (at least one). */
export const supportSendReq = z
  .object({ text: supportTextSchema.optional(), uploadId: uploadIdSchema.optional() })
  .refine((b) => b.text !== undefined || b.uploadId !== undefined, { message: 'parameterError' });

export const supportHistoryReq = z.object({
  /** Messages older than this id (the next page); absent: the newest. */
  beforeId: bigIdSchema.optional(),
  limit: z.number().int().min(1).max(SUPPORT_PAGE_MAX).default(30),
});
export const supportHistoryRes = z.object({
  /** null before the member's first message. */
  conversation: conversationSchema.nullable(),
  /** Newest first. */
  items: z.array(supportMessageSchema),
  hasMore: z.boolean(),
});
export type SupportHistory = z.infer<typeof supportHistoryRes>;
export const supportSendRes = z.object({ conversation: conversationSchema, message: supportMessageSchema });

// ---------- operator side ----------

export const conversationIdReq = z.object({ conversationId: idSchema });
export const adminSupportListReq = pageQuery.extend({
  status: z.enum([...SUPPORT_STATUSES, 'all']).default('open'),
});
export const adminConversationSchema = conversationSchema.extend({
  account: z.string(),
  /** The newest message's text (null: an image). */
  lastText: z.string().nullable(),
});
export type AdminConversation = z.infer<typeof adminConversationSchema>;
export const adminSupportListRes = paged(adminConversationSchema);
export const adminSupportHistoryReq = supportHistoryReq.extend({
  conversationId: idSchema,
});
export const adminSupportReplyReq = z.object({
  conversationId: idSchema,
  text: supportTextSchema,
});

// ---------- WebSocket messages (contract/realtime.ts adds them to the protocol) ----------

/** Client → server. */
export const supportClientMessages = [
  /** Identifies the socket's user for the support channel (the session token, as in `token`). */
  z.object({ op: z.literal('auth'), token: z.string().min(1).max(200) }),
  /** Sends a message: a member to its conversation, an operator to `conversationId`. */
  z.object({
    op: z.literal('say'),
    conversationId: idSchema.optional(),
    text: supportTextSchema.optional(),
    uploadId: uploadIdSchema.optional(),
  }),
] as const;

/**
 * Server → client: `authed` answers `auth`; `support` events: `message` (a new message with the
 * conversation after it), `conversation` (assigned, resolved, read), `resync` (events were
 * dropped while the socket was over its outbound budget: reload the history over REST).
 */
export const supportServerMessages = [
  z.object({ type: z.literal('authed'), role: z.enum(['member', 'operator']) }),
  z.object({
    type: z.literal('support'),
    event: z.enum(['message', 'conversation', 'resync']),
    conversation: conversationSchema.optional(),
    message: supportMessageSchema.optional(),
  }),
] as const;
export type SupportEvent = {
  type: 'support';
  event: 'message' | 'conversation' | 'resync';
  conversation?: Conversation;
  message?: SupportMessage;
};
