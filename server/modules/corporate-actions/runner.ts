/**
 * Runs the corporate actions (apply.ts) on the replay clock: each clock session's actions
 * (schedule.ts) are applied once the clock reaches it, before anything trades on it:
 *
 * - at start, before the trading engine starts (app.ts), catching up from the session of the
 *   oldest open position or resting order of an instrument with actions (a restart applies what
 *   fell due while the server was down, each action after the position's own session, in order);
 * - then every RUN_INTERVAL_MS of wall time, and at once when the gate (gate.ts) sees the first
 *   quote of a new session of an instrument with an action: the trading engine, the risk monitor
 *   and copy trading read the market through that gate, which holds those instruments without a
 *   price until the session is applied, so no match, close, margin call or liquidation ever sees
 *   a price in other units than the positions'.
 * Each pass first flushes the engine's due matches (`sweep`: an after-hours fill of the day
 * before belongs to the old units) and re-runs today's session (idempotent: a position that
 * appeared late is adjusted, none twice). Runs never overlap.
 *
 * Replay clock only: the exchange clock (real dates) and the stress source have no actions.
 */
import type { InstrumentKind } from '../../../contract/market-rules';
import type { Db } from '../../db/client';
import type { Clock } from '../../market/clock';
import type { MarketFeed } from '../../market/feed';
import { loadCorporateActions } from '../../market/reference';
import type { ReplayWindow } from '../../market/window';
import { periodicJob, type PeriodicJob } from '../common/periodic';
import type { OrderRow } from '../trading/fills';
import { applySession, type ApplyEnv } from './apply';
import { gateFeed } from './gate';
import { loadSchedule, symbolsOn, type ActionSchedule } from './schedule';
import { oldestOpenSession } from './sessions';

/** Wall ms between runs. */
export const RUN_INTERVAL_MS = 5_000;

/** The trading engine's part the runner uses (attached once the engine exists). */
export interface EngineHooks {
  sweep(): Promise<void>;
  readmit(row: OrderRow): void;
}

/** run() resolves with the positions and orders changed (and ex-rights values settled). */
export interface CorporateActionRunner extends PeriodicJob {
  /** The last session whose actions are applied; null before the first run (or without a replay). */
  appliedThrough(): number | null;
  /** Hands over the trading engine: later runs flush its matches and re-admit re-priced orders. */
  attach(engine: EngineHooks): void;
  /**
   * The market as the trading engine, the risk monitor and copy trading must see it: `feed` with
   * the quotes of instruments whose session is not applied yet held back (gate.ts).
   */
  gate(feed: MarketFeed): MarketFeed;
  /** The session → actions table (null until the first run loads it, or without a replay). */
  schedule(): ActionSchedule | null;
}

/** Creates the runner (module docstring). */
export function createCorporateActionRunner(opts: {
  db: Db;
  clock: Clock | null;
  window: ReplayWindow | null;
  kindOf(symbol: string): InstrumentKind;
  now: () => number;
  log?: (msg: string, err?: unknown) => void;
}): CorporateActionRunner {
  const { db, clock, window } = opts;
  const replay = clock?.mode === 'replay' && window !== null;
  let schedule: ActionSchedule | null = null;
  let lastDone: number | null = null;
  let engine: EngineHooks | null = null;
  const releases: Array<() => void> = [];
  const held = new Map<number, Set<string>>();

  const sessionOf = (tradeDate: string | null, at: Date | null): number => {
    const base = clock!.position(at ? at.getTime() : undefined).session;
    if (tradeDate) for (let k = base; k >= base - 3; k--) if (window!.dateOf(k) === tradeDate) return k;
    return base;
  };
  const env = (): ApplyEnv => ({
    db,
    sessionOf,
    kindOf: opts.kindOf,
    now: () => new Date(opts.now()),
    readmit: engine ? (row) => engine!.readmit(row) : undefined,
  });

  async function once(): Promise<number> {
    if (!replay) return 0;
    schedule ??= await loadSchedule(db, window, (await loadCorporateActions()).splits);
    if (engine) await engine.sweep();
    const today = clock.position().session;
    const from =
      lastDone === null
        ? Math.min(today, await oldestOpenSession(db, schedule.symbols, sessionOf))
        : Math.min(lastDone + 1, today);
    let n = 0;
    for (let s = from; s <= today; s++) {
      if (schedule.on(s).actions.length === 0) continue;
      const r = await applySession(env(), schedule, s);
      n += r.positions + r.orders + r.settled;
    }
    lastDone = today;
    for (const release of releases) release();
    return n;
  }

  const job = periodicJob(once, { intervalMs: RUN_INTERVAL_MS, what: 'corporate actions', log: opts.log });
  return {
    ...job,
    appliedThrough: () => lastDone,
    attach(e) {
      engine = e;
    },
    schedule: () => schedule,
    gate(feed) {
      const { feed: gated, release } = gateFeed(feed, {
        watches: (symbol) => replay && schedule !== null && schedule.symbols.has(symbol),
        mustHold(symbol) {
          if (!replay || schedule === null || !schedule.symbols.has(symbol)) return false;
          const s = clock.position().session;
          if (lastDone !== null && lastDone >= s) return false;
          let set = held.get(s);
          if (!set) {
            held.clear();
            held.set(s, (set = symbolsOn(schedule, s)));
          }
          return set.has(symbol);
        },
        kick() {
          job.run().catch((err) => opts.log?.('corporate actions failed', err));
        },
      });
      releases.push(release);
      return gated;
    },
  };
}
