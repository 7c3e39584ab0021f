/**
 * Which corporate actions apply on which replayed session (docs/adr/0002; contract/corporate-actions.ts):
 *
 * - `split`: a row of full-market/splits.csv (a split, a reverse split, a face-value change) on
 *   its resume date (the first day back after the halt): newShares per oldShares;
 * - `windowRestart`: the replay window starts over (its first replayed date, 2025-04-07) with the
 *   prices from before every split of the window, so each split is undone there: its inverse
 *   ratio (0050 4:1, 00663L 7:1, 4763 10:1) on positions still open;
 * - `exRights`: a stock-dividend event of the exchange file (kind 權 or 權息: the file carries
 *   only the combined 權值+息值 = close before − reference, never the ratio) with close before >
 *   reference on its ex-date: that value settled in cash (cash dividends of 息 events are the
 *   dividends module's). An event on a split's own date is the split's.
 *
 * Units: prices TWD minor; sessions are clock sessions (window.ts: session k replays dateOf(k)).
 */
import { and, gt, inArray, sql } from 'drizzle-orm';
import { inverseRatio, type ShareRatio } from '../../../contract/corporate-actions';
import type { Db } from '../../db/client';
import { exRightsEvents } from '../../db/schema';
import type { SplitEvent } from '../../market/reference';
import type { ReplayWindow } from '../../market/window';

/** A unit change on a session: every open position and resting order of `symbol` × ratio. */
export interface UnitChange {
  kind: 'split' | 'windowRestart';
  symbol: string;
  ratio: ShareRatio;
}

/** A stock dividend's ex-rights value settled in cash: (close before − reference) × shares. */
export interface ExRightsSettlement {
  kind: 'exRights';
  symbol: string;
  closeBeforeMinor: number;
  referenceMinor: number;
}

export type SessionAction = UnitChange | ExRightsSettlement;

/** The actions of the replay, by session. */
export interface ActionSchedule {
  /** Every symbol any action concerns. */
  readonly symbols: ReadonlySet<string>;
  /** The replayed date of `session` and its actions (window restarts first, then splits, then ex-rights). */
  on(session: number): { date: string; actions: SessionAction[] };
}

/**
 * The schedule over `window` from the split table (reference.ts loadCorporateActions `splits`,
 * keyed `${code}|${resumeDate}`) and the ex-rights events in the database. @throws RangeError
 * when a split resumes on the window's first replayed date (its undoing and its doing would
 * fall on the same session).
 */
export async function loadSchedule(
  db: Db,
  window: ReplayWindow,
  splits: ReadonlyMap<string, SplitEvent>,
): Promise<ActionSchedule> {
  const replayed = new Set(window.replayDayIndexes.map((i) => window.dates[i]!));
  const firstDate = window.dates[window.replayDayIndexes[0]!]!;
  const byDate = new Map<string, SessionAction[]>();
  const add = (date: string, a: SessionAction) => {
    const list = byDate.get(date);
    if (list) list.push(a);
    else byDate.set(date, [a]);
  };
  const splitKeys = new Set<string>();
  const restart: UnitChange[] = [];
  for (const [key, s] of splits) {
    const [symbol, date] = key.split('|') as [string, string];
    if (!replayed.has(date)) continue;
    if (date === firstDate) throw new RangeError(`split of ${symbol} on the window's first replayed date`);
    splitKeys.add(key);
    add(date, { kind: 'split', symbol, ratio: { oldShares: s.oldShares, newShares: s.newShares } });
    restart.push({
      kind: 'windowRestart',
      symbol,
      ratio: inverseRatio({ oldShares: s.oldShares, newShares: s.newShares }),
    });
  }
  const events = await db
    .select({
      symbol: exRightsEvents.symbol,
      date: exRightsEvents.exDate,
      closeBeforeMinor: exRightsEvents.closeBeforeMinor,
      referenceMinor: exRightsEvents.referenceMinor,
    })
    .from(exRightsEvents)
    .where(
      and(
        inArray(exRightsEvents.kindZh, ['權', '權息']),
        gt(exRightsEvents.closeBeforeMinor, exRightsEvents.referenceMinor),
        sql`${exRightsEvents.cashDividendMicros} is null`,
      ),
    );
  for (const e of events)
    if (replayed.has(e.date) && !splitKeys.has(`${e.symbol}|${e.date}`))
      add(e.date, { kind: 'exRights', ...e });
  const order = { windowRestart: 0, split: 1, exRights: 2 } as const;
  for (const list of byDate.values()) list.sort((a, b) => order[a.kind] - order[b.kind]);
  const symbols = new Set([...byDate.values()].flat().map((a) => a.symbol));
  return {
    symbols,
    on(session) {
      const date = window.dateOf(session);
      const own = byDate.get(date) ?? [];
      return { date, actions: date === firstDate ? [...restart, ...own] : own };
    },
  };
}

/** Symbols with an action on `session` (what the gate holds until it is applied). */
export function symbolsOn(schedule: ActionSchedule, session: number): Set<string> {
  return new Set(schedule.on(session).actions.map((a) => a.symbol));
}
