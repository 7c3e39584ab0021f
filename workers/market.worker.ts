/// <reference lib="webworker" />
/**
 * Market worker entry: exposes the market service over Comlink. Callbacks arrive as Comlink
 * proxies (one MessagePort each); the service releases them on unsubscribe, and handles go back
 * as proxies so the page can call `unsubscribe()` and then release its side.
 */
import * as Comlink from 'comlink';
import { createMarketService, type WebSocketCtor } from './market-service';
import type { MarketWorkerApi } from './protocol';

const service = createMarketService({
  WebSocket: WebSocket as unknown as WebSocketCtor,
  fetch: (url, init) => fetch(url, init),
  release: (callbacks) => {
    const rel = (callbacks as { [Comlink.releaseProxy]?: () => void })[Comlink.releaseProxy];
    if (typeof rel === 'function') rel.call(callbacks);
  },
});

const exposed: MarketWorkerApi = {
  start: (config) => service.start(config),
  subscribe: (channel, params, callbacks) => Comlink.proxy(service.subscribe(channel, params, callbacks)),
  watchStatus: (callbacks) => Comlink.proxy(service.watchStatus(callbacks)),
  stop: () => service.stop(),
};

Comlink.expose(exposed);
