/**
 * support/* (the member's own conversation) and admin/support* (every conversation) handlers
 * (contract/support.ts). Writes go through service.ts; after they commit, the change is pushed
 * live through the hub (hub.ts) to the member's sockets and every operator socket.
 */
import { requireUser, type Ctx, type Handlers } from '../common/context';
import { fail } from '../common/errors';
import {
  byMember,
  conversationView,
  historyPage,
  listConversations,
  markRead,
  operatorAction,
  postMessage,
  type ConversationView,
  type Posted,
} from './service';
import { eq } from 'drizzle-orm';
import { supportConversations } from '../../db/schema';

const publish = (ctx: Ctx, view: ConversationView | null, posted?: Posted) => {
  if (view) ctx.services.supportHub.publish(view, posted?.message);
};

/** The conversation by id for an operator. @throws notFound (404) */
async function existing(ctx: Ctx, id: number): Promise<ConversationView> {
  const view = await conversationView(ctx.db, eq(supportConversations.id, id));
  if (!view) throw fail('notFound');
  return view;
}

export const supportHandlers: Pick<
  Handlers,
  | 'support/history'
  | 'support/send'
  | 'support/read'
  | 'admin/supportConversations'
  | 'admin/supportHistory'
  | 'admin/supportReply'
  | 'admin/supportRead'
  | 'admin/supportAssign'
  | 'admin/supportResolve'
> = {
  async 'support/history'(body, ctx) {
    const user = requireUser(ctx);
    const view = await conversationView(ctx.db, byMember(user.id));
    if (!view) return { conversation: null, items: [], hasMore: false };
    return {
      conversation: view.conversation,
      ...(await historyPage(ctx.db, view.conversation.id, body.beforeId, body.limit)),
    };
  },

  async 'support/send'(body, ctx) {
    const user = requireUser(ctx);
    await ctx.services.memberQuotas.consume('supportSend', user.id);
    const posted = await postMessage(ctx.db, user, body);
    publish(ctx, posted, posted);
    return { conversation: posted.conversation, message: posted.message };
  },

  async 'support/read'(_body, ctx) {
    const view = await markRead(ctx.db, byMember(requireUser(ctx).id), 'member');
    publish(ctx, view);
    return view?.conversation ?? null;
  },

  async 'admin/supportConversations'(body, ctx) {
    const { items, total } = await listConversations(ctx.db, body.status, body.page, body.pageSize);
    return { items, total, page: body.page, pageSize: body.pageSize };
  },

  async 'admin/supportHistory'(body, ctx) {
    const view = await existing(ctx, body.conversationId);
    return {
      conversation: view.conversation,
      ...(await historyPage(ctx.db, view.conversation.id, body.beforeId, body.limit)),
    };
  },

  async 'admin/supportReply'(body, ctx) {
    const posted = await postMessage(ctx.db, requireUser(ctx), body);
    publish(ctx, posted, posted);
    return { conversation: posted.conversation, message: posted.message };
  },

  async 'admin/supportRead'(body, ctx) {
    await existing(ctx, body.conversationId);
    const view = await markRead(ctx.db, eq(supportConversations.id, body.conversationId), 'operator');
    publish(ctx, view);
    return view!.conversation;
  },

  async 'admin/supportAssign'(body, ctx) {
    const view = await operatorAction(ctx.db, requireUser(ctx).id, body.conversationId, 'assign');
    publish(ctx, view);
    return view.conversation;
  },

  async 'admin/supportResolve'(body, ctx) {
    const view = await operatorAction(ctx.db, requireUser(ctx).id, body.conversationId, 'resolve');
    publish(ctx, view);
    return view.conversation;
  },
};
