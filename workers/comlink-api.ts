/**
 * Comlink wiring of the market service, apart from the worker entry so tests can expose the
 * same API on one port of a Node `MessageChannel` (tests/unit/client-worker-comlink.test.ts).
 *
 * Proxy hygiene (sourcegraph's remote observables): every `Comlink.proxy` opens a MessagePort.
 * The page passes one callbacks proxy per subscription; the service releases it when the
 * subscription ends (`releaseComlinkProxy`). Handles go back as proxies; the page releases them
 * after calling `unsubscribe()` (src/live/worker-bridge.ts).
 */
import * as Comlink from 'comlink';
import {
  createMarketService,
  type FetchLike,
  type MarketService,
  type WebSocketCtor,
} from './market-service';
import type { MarketWorkerApi } from './protocol';

/** Releases a Comlink proxy received from the page (no-op on a plain object). */
export function releaseComlinkProxy(obj: object): void {
  const rel = (obj as { [Comlink.releaseProxy]?: () => void })[Comlink.releaseProxy];
  if (typeof rel === 'function') rel.call(obj);
}

/** The service as exposed: handles wrapped in `Comlink.proxy` so the page can call them back. */
export function comlinkApi(service: MarketService): MarketWorkerApi {
  return {
    start: (config) => service.start(config),
    subscribe: (channel, params, callbacks) => Comlink.proxy(service.subscribe(channel, params, callbacks)),
    watchStatus: (callbacks) => Comlink.proxy(service.watchStatus(callbacks)),
    watchSupport: (token, callbacks) => Comlink.proxy(service.watchSupport(token, callbacks)),
    setVisibility: (visible, resync) => service.setVisibility(visible, resync),
    stop: () => service.stop(),
  };
}

/**
 * Creates the service with Comlink's release and transfer, and exposes it on `endpoint`
 * (the worker's global scope in production, a MessagePort in tests).
 */
export function exposeMarketService(
  io: { WebSocket: WebSocketCtor; fetch: FetchLike },
  endpoint?: Comlink.Endpoint,
): MarketService {
  const service = createMarketService({
    ...io,
    release: releaseComlinkProxy,
    transfer: Comlink.transfer,
  });
  Comlink.expose(comlinkApi(service), endpoint);
  return service;
}
