/**
 * The trading engine as a request service: adds `trading` to `Services` (and so to every
 * handler's `Ctx`) by module augmentation, so server/modules/common/context.ts, which every
 * domain folder imports, never imports the trading folder back (ADR 0052: no folder cycles).
 * server/app.ts creates the engine and passes it in the services object.
 */
import type { TradingEngine } from './engine';

declare module '../common/context' {
  interface Services {
    /** The trading core (server/modules/trading/engine.ts): order entry, fills, the resting book. */
    trading: TradingEngine;
  }
}
