/**
 * The account summary marked to the live feed. `user/info` gives the ledger balances and a
 * server-side mark at request time; the holdings are re-marked here to the same live quotes the
 * position rows use (contract/market-rules.ts `unrealisedPnlMinor`, the server's formula), so a
 * screen never shows two different P&Ls. Amounts in TWD minor units.
 */
import { useMemo } from 'react';
import { shallowEqual, useSelector } from 'react-redux';
import type { AccountSummary } from '../../../contract/account';
import { unrealisedPnlMinor } from '../../../contract/market-rules';
import { useOrdersInfiniteQuery, useUserInfoQuery } from '../../api/api';
import { useQuoteStream } from '../../live/hooks';
import type { MarketRootState } from '../../live/quotes-slice';
import { selectQuote } from '../../live/selectors';

export function useLiveAccountSummary(opts: { skip?: boolean } = {}): {
  data: AccountSummary | undefined;
  refetch: () => unknown;
} {
  const { data, refetch } = useUserInfoQuery(undefined, { skip: opts.skip });
  const { data: pages } = useOrdersInfiniteQuery({ tab: 'holdings' }, { skip: opts.skip });
  const holdings = useMemo(() => (pages?.pages ?? []).flatMap((p) => p.items), [pages]);
  const symbols = useMemo(() => Array.from(new Set(holdings.map((h) => h.symbol))), [holdings]);
  useQuoteStream(symbols);
  const lasts = useSelector(
    (s: MarketRootState) => symbols.map((sym) => selectQuote(s, sym)?.lastMinor),
    shallowEqual,
  );
  const live = useMemo(() => {
    if (!data) return undefined;
    const last = new Map(symbols.map((sym, i) => [sym, lasts[i]]));
    let unrealised = 0;
    for (const h of holdings) {
      const mark = last.get(h.symbol);
      if (h.openValueMinor === null || mark === undefined) return data; // no live mark yet: the server's
      unrealised += unrealisedPnlMinor(h.side, h.openValueMinor, mark, h.shares);
    }
    return {
      ...data,
      unrealisedPnlMinor: unrealised,
      totalAssetsMinor: data.totalAssetsMinor - data.unrealisedPnlMinor + unrealised,
    };
  }, [data, holdings, symbols, lasts]);
  return { data: live, refetch };
}
