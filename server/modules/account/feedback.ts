/**
 * `/user/pj`: members rate the app (one to five stars and an optional comment,
 * contract/account.ts feedbackReq); operators read every rating and the average in the console.
 * A member sees only their own.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { feedback, users } from '../../db/schema';
import { requireUser, type Handlers } from '../common/context';

const view = (r: typeof feedback.$inferSelect) => ({
  id: r.id,
  rating: r.rating,
  comment: r.comment,
  createdAt: r.createdAt.toISOString(),
});

export const feedbackHandlers: Pick<Handlers, 'user/feedback' | 'user/myFeedback' | 'admin/feedback'> = {
  async 'user/feedback'(body, ctx) {
    const user = requireUser(ctx);
    await ctx.services.memberQuotas.consume('feedback', user.id);
    const [row] = await ctx.db
      .insert(feedback)
      .values({ userId: user.id, rating: body.rating, comment: body.comment })
      .returning();
    return view(row!);
  },

  async 'user/myFeedback'(_body, ctx) {
    const user = requireUser(ctx);
    const rows = await ctx.db
      .select()
      .from(feedback)
      .where(eq(feedback.userId, user.id))
      .orderBy(desc(feedback.id))
      .limit(50);
    return rows.map(view);
  },

  /** The newest 200 ratings with their accounts, and the average and count over all of them. */
  async 'admin/feedback'(_body, ctx) {
    const [agg] = await ctx.db
      .select({ avg: sql<string | null>`avg(${feedback.rating})`, count: sql<number>`count(*)::int` })
      .from(feedback);
    const rows = await ctx.db
      .select({ f: feedback, account: users.account })
      .from(feedback)
      .innerJoin(users, eq(users.id, feedback.userId))
      .orderBy(desc(feedback.id))
      .limit(200);
    return {
      average: agg?.avg === null || agg?.avg === undefined ? null : Math.round(Number(agg.avg) * 100) / 100,
      count: agg?.count ?? 0,
      items: rows.map((r) => ({ ...view(r.f), account: r.account })),
    };
  },
};
