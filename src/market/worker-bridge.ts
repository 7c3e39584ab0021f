/**
 * Main-thread side of the market worker. The worker owns the socket; here its Comlink remote is
 * wrapped back into RxJS Observables (after sourcegraph's remote-observable bridge): callbacks
 * go over as one `Comlink.proxy`, and tearing down the Observable calls the handle's
 * `unsubscribe()` and releases the handle's proxy, so no MessagePort leaks.
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
} from '../../workers/protocol';

let remote: Comlink.Remote<MarketWorkerApi> | null = null;

/** ws(s)://host/ws for the page's origin. */
export function wsUrlFor(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}/ws`;
}

function getRemote(): Comlink.Remote<MarketWorkerApi> {
  if (!remote) {
    const worker = new Worker(new URL('../../workers/market.worker.ts', import.meta.url), {
      type: 'module',
      name: 'market',
    });
    remote = Comlink.wrap<MarketWorkerApi>(worker);
    void remote.start({ wsUrl: wsUrlFor(location.origin), restBase: `${location.origin}/api/vue/` });
  }
  return remote;
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

function remoteObservable<T>(
  open: (callbacks: {
    next(v: T): void;
    error(msg: string): void;
    complete(): void;
  }) => Promise<Comlink.Remote<StreamHandle>>,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    // RxJS rebinds observer functions, which would strip Comlink's proxy marker: proxy a fresh
    // object whose methods forward to the subscriber.
    const callbacks = Comlink.proxy({
      next: (v: T) => subscriber.next(v),
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

/** Conflated batches of one channel for the given symbols. */
export function marketStream<C extends Channel>(channel: C, params: StreamParams): Observable<BatchOf<C>> {
  return remoteObservable<BatchOf<C>>(
    (cb) =>
      getRemote().subscribe(channel, params, cb as never) as unknown as Promise<Comlink.Remote<StreamHandle>>,
  );
}

/** Connection state and market clock. */
export function marketStatus$(): Observable<StatusSnapshot> {
  return remoteObservable<StatusSnapshot>(
    (cb) => getRemote().watchStatus(cb) as unknown as Promise<Comlink.Remote<StreamHandle>>,
  );
}
