/// <reference lib="webworker" />
/**
 * Market worker entry: creates the market service (workers/market-service.ts) and exposes it
 * over Comlink on the worker's global scope (workers/comlink-api.ts: proxied handles, released
 * callbacks, transferred typed arrays).
 */
import { exposeMarketService } from './comlink-api';
import type { WebSocketCtor } from './market-service';

exposeMarketService({
  WebSocket: WebSocket as unknown as WebSocketCtor,
  fetch: (url, init) => fetch(url, init),
});
