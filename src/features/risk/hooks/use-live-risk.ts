/**
 * The account's risk marked to the live quote stream: `risk/summary` gives the ledger balances,
 * the thresholds and each position with its risk pool (polled every RISK_POLL_MS, refetched when
 * orders change), and the positions are re-marked here to the same live last prices the position
 * rows use, with contract/risk.ts `accountRisk` — the server monitor's own arithmetic, pool by pool.
 * `risk` is the member's own pool; `byOrder` every position. Until a quote arrives a position
 * keeps the server's mark. Amounts in minor units, ratios in bps.
 */
import { useMemo } from 'react';
import { shallowEqual, useSelector } from 'react-redux';
import { accountRisk, type AccountRisk, type PositionRisk } from '../../../../contract/risk';
import type { RiskSummary } from '../../../../contract/risk-api';
import { useQuoteStream } from '../../../live/hooks';
import type { MarketRootState } from '../../../live/quotes-slice';
import { selectQuote } from '../../../live/selectors';
import { RISK_POLL_MS, useRiskSummaryQuery } from '../api/risk-api';

export interface LiveRisk {
  summary: RiskSummary;
  risk: AccountRisk;
  /** Per-position risk by order id. */
  byOrder: Map<number, PositionRisk>;
}

const NO_SYMBOLS: string[] = [];

/** The live risk of the logged-in member (undefined until the summary arrives or when skipped). */
export function useLiveRisk(opts: { skip?: boolean } = {}): LiveRisk | undefined {
  const { data: summary } = useRiskSummaryQuery(undefined, {
    skip: opts.skip,
    pollingInterval: RISK_POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const symbols = useMemo(
    () => (summary ? Array.from(new Set(summary.positions.map((p) => p.symbol))) : NO_SYMBOLS),
    [summary],
  );
  useQuoteStream(symbols);
  const lasts = useSelector(
    (s: MarketRootState) => symbols.map((sym) => selectQuote(s, sym)?.lastMinor),
    shallowEqual,
  );
  return useMemo(() => {
    if (!summary) return undefined;
    const last = new Map(symbols.map((sym, i) => [sym, lasts[i]]));
    const thresholds = { marginCallBps: summary.marginCallBps, maintenanceBps: summary.maintenanceBps };
    const inputs = (followId: number | null) =>
      summary.positions
        .filter((p) => p.followId === followId)
        .map((p) => {
          const live = last.get(p.symbol);
          return {
            id: p.orderId,
            side: p.side,
            kind: p.kind,
            leverage: p.leverage,
            openValueMinor: p.openValueMinor,
            shares: p.shares,
            marginMinor: p.marginMinor,
            markMinor: live !== undefined && live > 0 ? live : p.markMinor,
          };
        });
    // The member's own pool (the account's ratio), then each follow's pool against its cash.
    const risk = accountRisk({
      availableMinor: summary.availableMinor,
      frozenForOrdersMinor: summary.frozenForOrdersMinor,
      debtMinor: summary.debtMinor,
      positions: inputs(null),
      thresholds,
    });
    const positions = [
      ...risk.positions,
      ...summary.pools.flatMap(
        (pool) =>
          accountRisk({
            availableMinor: pool.cashMinor,
            frozenForOrdersMinor: 0,
            debtMinor: 0,
            positions: inputs(pool.followId),
            thresholds,
          }).positions,
      ),
    ];
    return { summary, risk, byOrder: new Map(positions.map((p) => [p.id, p])) };
  }, [summary, symbols, lasts]);
}
