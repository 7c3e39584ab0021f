/**
 * Main-thread side of the market worker. The worker owns the socket; here its Comlink remote is
 * wrapped back into RxJS Observables (after sourcegraph's remote-observable bridge): callbacks
 * go over as one `Comlink.proxy`, and tearing down the Observable calls the handle's
 * `unsubscribe()` and releases the handle's proxy, so no MessagePort leaks. Batches arrive in
 * wire form (typed arrays transferred for quotes, depth books and candle snapshots) and are
 * decoded here by the subscription's own decoder, so page code only sees `Quote`/`Depth`/`CandleUpdate`/`TradeUpdate` objects.
 *
 * Page visibility is forwarded to the worker (`setVisibility`) on `visibilitychange`,
 * `pagehide` and `pageshow` (a bfcache restore forces a resync).
 */
import * as Comlink from 'comlink';
import { Observable } from 'rxjs';
import type { Channel } from '../../contract/realtime';
import type {
  BatchOf,
  MarketWorkerApi,
  StatusSnapshot,
  StreamHandle,
  StreamParams,
  WireBatch,
} from '../../workers/protocol';
import { createBatchDecoder } from '../../workers/transfer';

export { applyCandleUpdate, applyTradeUpdate } from '../../workers/conflate';
export { TAPE_MAX } from '../../workers/protocol';

let remote: Comlink.Remote<MarketWorkerApi> | null = null;

/** ws(s)://host/ws for the page's origin. */
export function wsUrlFor(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}/ws`;
}

/** The part of the API visibility forwarding needs (the remote, or a test double). */
export interface VisibilitySink {
  setVisibility(visible: boolean, resync?: boolean): unknown;
}

/**
 * Forwards page visibility to the worker: hidden → `setVisibility(false)` (the worker stops
 * delivering, and after its grace period closes the socket); visible → `setVisibility(true)`
 * (it resyncs at once); `pageshow` with `persisted` (restored from the bfcache, timers were
 * frozen) → `setVisibility(true, true)` (resync even if the worker thought it visible).
 * Reports the current visibility at once. Returns the function that removes the listeners.
 */
export function watchPageVisibility(
  sink: VisibilitySink,
  doc: Document = document,
  win: Window = window,
): () => void {
  const tell = (visible: boolean, resync = false): void => {
    try {
      void Promise.resolve(sink.setVisibility(visible, resync)).catch(() => undefined);
    } catch {
      // worker gone
    }
  };
  const onVisibility = (): void => tell(doc.visibilityState !== 'hidden');
  const onShow = (ev: Event): void => {
    if ((ev as PageTransitionEvent).persisted) tell(true, true);
    else onVisibility();
  };
  const onHide = (ev: Event): void => {
    if ((ev as PageTransitionEvent).persisted) tell(false);
  };
  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('pageshow', onShow);
  win.addEventListener('pagehide', onHide);
  onVisibility();
  return () => {
    doc.removeEventListener('visibilitychange', onVisibility);
    win.removeEventListener('pageshow', onShow);
    win.removeEventListener('pagehide', onHide);
  };
}

/** The worker's Comlink remote, spawned on first use (src/features/support/support-events.ts shares it). */
export function getRemote(): Comlink.Remote<MarketWorkerApi> {
  if (!remote) {
    const worker = new Worker(new URL('../../workers/market.worker.ts', import.meta.url), {
      type: 'module',
      name: 'market',
    });
    remote = Comlink.wrap<MarketWorkerApi>(worker);
    void remote.start({ wsUrl: wsUrlFor(location.origin), restBase: `${location.origin}/api/vue/` });
    watchPageVisibility(remote);
  }
  return remote;
}

/**
 * Uses the given remote instead of spawning the worker (tests: the service exposed on one port
 * of a MessageChannel). `null` forgets it.
 */
export function setMarketRemote(r: Comlink.Remote<MarketWorkerApi> | null): void {
  remote = r;
}

async function dispose(handle: Comlink.Remote<StreamHandle>): Promise<void> {
  try {
    await handle.unsubscribe();
  } catch {
    // worker gone: nothing to unsubscribe
  } finally {
    handle[Comlink.releaseProxy]();
  }
}

/** `decoder()` is called once per subscription (a stateful decoder lives as long as it). */
export function remoteObservable<W, T>(
  open: (callbacks: {
    next(v: W): void;
    error(msg: string): void;
    complete(): void;
  }) => Promise<Comlink.Remote<StreamHandle>>,
  decoder: () => (w: W) => T,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    const decode = decoder();
    // RxJS rebinds observer functions, which would strip Comlink's proxy marker: proxy a fresh
    // object whose methods forward to the subscriber.
    const callbacks = Comlink.proxy({
      next: (v: W) => subscriber.next(decode(v)),
      error: (msg: string) => subscriber.error(new Error(msg)),
      complete: () => undefined,
    });
    let handle: Comlink.Remote<StreamHandle> | null = null;
    let closed = false;
    open(callbacks).then(
      (h) => {
        if (closed) void dispose(h);
        else handle = h;
      },
      (err: unknown) => subscriber.error(err),
    );
    return () => {
      closed = true;
      if (handle) void dispose(handle);
      handle = null;
    };
  });
}

/**
 * Conflated batches of one channel for the given symbols (at most one per flush, ≤ 16 ms; none
 * while the page is hidden). Candle updates follow `CandleUpdate`'s snapshot rule
 * (`applyCandleUpdate`), trade updates `TradeUpdate`'s (`applyTradeUpdate`).
 */
export function marketStream<C extends Channel>(channel: C, params: StreamParams): Observable<BatchOf<C>> {
  return remoteObservable<WireBatch, BatchOf<C>>(
    (cb) =>
      getRemote().subscribe(channel, params, cb as never) as unknown as Promise<Comlink.Remote<StreamHandle>>,
    () => createBatchDecoder() as (w: WireBatch) => BatchOf<C>,
  );
}

/** Connection state, clock and `lastDataAt` (workers/protocol.ts StatusSnapshot). */
export function marketStatus$(): Observable<StatusSnapshot> {
  return remoteObservable<StatusSnapshot, StatusSnapshot>(
    (cb) => getRemote().watchStatus(cb) as unknown as Promise<Comlink.Remote<StreamHandle>>,
    () => (s) => s,
  );
}
