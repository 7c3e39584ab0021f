/**
 * The account's risk marked to the live quote stream: `risk/summary` gives the ledger balances,
 * the thresholds and each position (polled every RISK_POLL_MS, refetched when orders change), and
 * the positions are re-marked here to the same live last prices the position rows use, with
 * contract/risk.ts `accountRisk` — the server monitor's own arithmetic. Until a quote arrives a
 * position keeps the server's mark. Amounts in minor units, ratios in bps.
 */
import { useMemo } from 'react';
import { shallowEqual, useSelector } from 'react-redux';
import { accountRisk, type AccountRisk, type PositionRisk } from '../../../contract/risk';
import type { RiskSummary } from '../../../contract/risk-api';
import { useQuoteStream } from '../../market/hooks';
import type { MarketRootState } from '../../market/quotes-slice';
import { selectQuote } from '../../market/selectors';
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
    const risk = accountRisk({
      availableMinor: summary.availableMinor,
      debtMinor: summary.debtMinor,
      positions: summary.positions.map((p) => {
        const live = last.get(p.symbol);
        return {
          id: p.orderId,
          side: p.side,
          kind: p.kind,
          openValueMinor: p.openValueMinor,
          shares: p.shares,
          marginMinor: p.marginMinor,
          markMinor: live !== undefined && live > 0 ? live : p.markMinor,
        };
      }),
      thresholds: { marginCallBps: summary.marginCallBps, maintenanceBps: summary.maintenanceBps },
    });
    return { summary, risk, byOrder: new Map(risk.positions.map((p) => [p.id, p])) };
  }, [summary, symbols, lasts]);
}
