/** Member centre summary and watchlist. Balances come from the ledger, marks from the feed. */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { unrealisedPnlMinor } from '../../../contract/market-rules';
import {
  instruments,
  ledgerAccounts,
  ledgerPostings,
  ledgerTransactions,
  orders,
  watchlist,
} from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { fundsPasswordState } from '../identity/funds-password';
import { kycStatusOf } from '../identity/kyc';
import { memberBalances } from '../ledger/ledger';

/** user/info and the watchlist handlers. */
export const accountHandlers: Pick<
  Handlers,
  'user/info' | 'user/Optionallist' | 'user/addOptional' | 'user/delOptional'
> = {
  async 'user/info'(_body, ctx) {
    const user = requireUser(ctx);
    const bal = await memberBalances(ctx.db, user.id);
    const holdings = await ctx.db
      .select({
        symbol: orders.symbol,
        side: orders.side,
        open: orders.openPriceMinor,
        shares: orders.shares,
      })
      .from(orders)
      .where(and(eq(orders.userId, user.id), eq(orders.status, 'holding')));
    let unrealised = 0;
    for (const h of holdings) {
      const q = ctx.feed.quote(h.symbol);
      if (q && h.open !== null)
        unrealised += unrealisedPnlMinor(h.side as 'long' | 'short', h.open, q.lastMinor, h.shares);
    }
    const realised = await ctx.db
      .select({ sum: sql<string>`coalesce(sum(${ledgerPostings.amountMinor}), 0)` })
      .from(ledgerPostings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerPostings.transactionId))
      .where(
        and(
          eq(ledgerAccounts.userId, user.id),
          inArray(ledgerTransactions.type, ['realisedPnl', 'tradeFee', 'transactionTax']),
        ),
      );
    // The member centre's USD amount (product-spec §2): the USD available balance, 0 without a USD account.
    const usd = await memberBalances(ctx.db, user.id, 'USD');
    return {
      account: user.account,
      currency: 'TWD' as const,
      totalAssetsMinor: bal.available + bal.frozen + bal.margin + bal.debt + unrealised,
      availableMinor: bal.available,
      frozenMinor: bal.frozen,
      marginMinor: bal.margin,
      unrealisedPnlMinor: unrealised,
      realisedProfitMinor: Number(realised[0]?.sum ?? 0),
      kycStatus: await kycStatusOf(ctx.db, user.id),
      usdMinor: usd.available,
      fundsPasswordSet: (await fundsPasswordState(ctx.db, user.id)).set,
    };
  },
  async 'user/Optionallist'(_body, ctx) {
    const user = requireUser(ctx);
    return ctx.db
      .select({ symbol: watchlist.symbol, name: instruments.name })
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
