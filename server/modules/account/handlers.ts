/** Member centre summary and watchlist. Balances come from the ledger, marks from the feed. */
import { and, eq } from 'drizzle-orm';
import { instruments, watchlist } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { fundsPasswordState } from '../identity/funds-password';
import { kycStatusOf } from '../identity/kyc';
import { memberOverview } from '../wallet/overview';
import { realisedTotal } from '../wallet/pnl';

/** user/info and the watchlist handlers. */
export const accountHandlers: Pick<
  Handlers,
  'user/info' | 'user/Optionallist' | 'user/addOptional' | 'user/delOptional'
> = {
  /**
   * The member centre: TWD balances from the ledger; total assets is the asset overview's net
   * assets (server/modules/wallet/overview.ts: every currency valued in TWD, credit owed
   * deducted) and realised profit its realised total (wallet/pnl.ts), so the two screens agree.
   */
  async 'user/info'(_body, ctx) {
    const user = requireUser(ctx);
    const overview = await memberOverview(ctx.db, ctx.feed, user.id, ctx.now());
    const twd = overview.currencies.find((c) => c.currency === 'TWD')!;
    // The member centre's USD amount (product-spec §2): the USD available balance, 0 without a USD account.
    const usd = overview.currencies.find((c) => c.currency === 'USD');
    return {
      account: user.account,
      currency: 'TWD' as const,
      totalAssetsMinor: overview.totalTwdMinor,
      availableMinor: twd.availableMinor,
      frozenMinor: twd.frozenMinor,
      marginMinor: twd.marginMinor,
      unrealisedPnlMinor: overview.positions.unrealisedMinor,
      // The one definition of realised P&L (docs/glossary.md; wallet/pnl.ts), as the overview's.
      realisedProfitMinor: await realisedTotal(ctx.db, user.id),
      kycStatus: await kycStatusOf(ctx.db, user.id),
      usdMinor: usd?.availableMinor ?? 0,
      fundsPasswordSet: (await fundsPasswordState(ctx.db, user.id)).set,
    };
  },
  async 'user/Optionallist'(_body, ctx) {
    const user = requireUser(ctx);
    return ctx.db
      .select({ symbol: watchlist.symbol, name: instruments.name, nameEn: instruments.nameEn })
      .from(watchlist)
      .innerJoin(instruments, eq(instruments.symbol, watchlist.symbol))
      .where(eq(watchlist.userId, user.id))
      .orderBy(watchlist.createdAt);
  },
  async 'user/addOptional'(body, ctx) {
    const user = requireUser(ctx);
    const inst = await ctx.db
      .select({ s: instruments.symbol })
      .from(instruments)
      .where(eq(instruments.symbol, body.symbol));
    if (!inst.length) throw fail('productNotFound');
    await ctx.db.insert(watchlist).values({ userId: user.id, symbol: body.symbol }).onConflictDoNothing();
    return { ok: true as const };
  },
  async 'user/delOptional'(body, ctx) {
    const user = requireUser(ctx);
    await ctx.db
      .delete(watchlist)
      .where(and(eq(watchlist.userId, user.id), eq(watchlist.symbol, body.symbol)));
    return { ok: true as const };
  },
};
