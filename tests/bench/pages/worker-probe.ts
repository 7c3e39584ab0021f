/// <reference lib="webworker" />
/**
 * Bench-only instrumentation inside the market worker. tests/bench/vite.config.ts imports this
 * module ahead of workers/market.worker.ts (bench build only), so it patches the worker's globals
 * before the service and Comlink use them:
 *
 * - Messages absorbed: the service's `new WebSocket(...)` gets a subclass whose `onmessage`
 *   counts stream messages (occurrences of `"seq":` in the frame's text; no second JSON parse)
 *   when the worker's handler runs them — messages the worker processed, not bytes that arrived.
 * - CPU throttling: Chromium's `Emulation.setCPUThrottlingRate` is refused for worker targets
 *   ("only supported for pages"), so the worker is throttled here the way Chromium throttles a
 *   page's main thread: after each task callback (socket events, Comlink/MessagePort messages,
 *   timers) the thread sleeps (rate − 1) × the callback's duration, so it does the same work
 *   `rate` times slower. The sleep is `Atomics.wait` (the driver enables SharedArrayBuffer with
 *   a Chromium feature flag); without it, a busy wait. Microtasks run after a callback returns
 *   are not stretched.
 * - Worker busy time: the summed duration of those callbacks before stretching.
 * - Quote subscriptions: the `sub`/`unsub` messages the service sends on the `quotes` channel are
 *   followed, so the driver can subscribe its reference client to the same symbols as a page that
 *   subscribes only what it shows (the app's market list: the rows on screen).
 *
 * The page and the driver talk to it on a BroadcastChannel: `{throttle: rate}` in; every 250 ms
 * `{absorbed, taskMs}` out (deltas), and `{quoteSymbols}` (the whole set) when it changed.
 */
const BENCH_CHANNEL = 'tw-bench-worker'; // same name in tests/bench/pages/probe.ts
const REPORT_MS = 250;
const SEQ = '"seq":';

type Fn = (...args: unknown[]) => unknown;

let rate = 1;
let absorbed = 0;
let taskMs = 0;
let depth = 0;
/** Symbols subscribed on the `quotes` channel of the current socket. */
const quoteSymbols = new Set<string>();
let quoteSymbolsChanged = false;
const cell = typeof SharedArrayBuffer === 'function' ? new Int32Array(new SharedArrayBuffer(4)) : null;

function pause(ms: number): void {
  if (ms <= 0) return;
  if (cell) {
    Atomics.wait(cell, 0, 0, ms);
    return;
  }
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy wait: no SharedArrayBuffer
  }
}

/** Runs one task callback, then stretches it by the throttle rate (outermost callback only). */
function run(fn: Fn, self: unknown, args: unknown[]): unknown {
  if (depth > 0) return fn.apply(self, args);
  depth++;
  const t0 = performance.now();
  try {
    return fn.apply(self, args);
  } finally {
    depth--;
    const d = performance.now() - t0;
    taskMs += d;
    if (rate > 1) pause(d * (rate - 1));
  }
}

const wrapped = new WeakMap<object, Fn>();
function wrap<F>(fn: F): F {
  if (typeof fn !== 'function') return fn;
  let w = wrapped.get(fn);
  if (!w) {
    const original = fn as unknown as Fn;
    w = function (this: unknown, ...args: unknown[]) {
      return run(original, this, args);
    };
    wrapped.set(fn, w);
  }
  return w as unknown as F;
}
const listenerOf = (l: unknown) => (typeof l === 'function' ? wrap(l) : l);

function patchListeners(proto: EventTarget) {
  const add = proto.addEventListener;
  const remove = proto.removeEventListener;
  proto.addEventListener = function (this: EventTarget, type: string, l: unknown, o?: unknown) {
    return add.call(this, type, listenerOf(l) as EventListener, o as AddEventListenerOptions);
  };
  proto.removeEventListener = function (this: EventTarget, type: string, l: unknown, o?: unknown) {
    return remove.call(this, type, listenerOf(l) as EventListener, o as EventListenerOptions);
  };
}

// Report with the unpatched timer, then patch.
const nativeSetInterval = self.setInterval.bind(self);
const channel = new BroadcastChannel(BENCH_CHANNEL);
channel.onmessage = (ev: MessageEvent<{ throttle?: number }>) => {
  if (typeof ev.data?.throttle === 'number' && ev.data.throttle >= 1) rate = ev.data.throttle;
};
nativeSetInterval(() => {
  if (quoteSymbolsChanged) {
    quoteSymbolsChanged = false;
    channel.postMessage({ quoteSymbols: [...quoteSymbols] });
  }
  if (absorbed === 0 && taskMs === 0) return;
  channel.postMessage({ absorbed, taskMs });
  absorbed = 0;
  taskMs = 0;
}, REPORT_MS);

const scope = self as unknown as Record<string, unknown>;
const nativeSetTimeout = self.setTimeout as unknown as Fn;
const nativeSetIntervalRaw = self.setInterval as unknown as Fn;
scope.setTimeout = (fn: unknown, ...rest: unknown[]) => nativeSetTimeout.call(self, wrap(fn), ...rest);
scope.setInterval = (fn: unknown, ...rest: unknown[]) => nativeSetIntervalRaw.call(self, wrap(fn), ...rest);
patchListeners(self as unknown as EventTarget);
patchListeners(MessagePort.prototype);

function countMessages(data: unknown): number {
  if (typeof data !== 'string') return 0;
  let n = 0;
  for (let i = data.indexOf(SEQ); i >= 0; i = data.indexOf(SEQ, i + SEQ.length)) n++;
  return n;
}

/** Follows the `quotes` channel's sub/unsub in an outgoing client message (text, JSON). */
function noteClientMessage(data: unknown): void {
  if (typeof data !== 'string' || !data.includes('"quotes"')) return;
  let m: { op?: unknown; channel?: unknown; symbols?: unknown };
  try {
    m = JSON.parse(data) as typeof m;
  } catch {
    return;
  }
  if (m.channel !== 'quotes' || !Array.isArray(m.symbols)) return;
  for (const s of m.symbols) {
    if (typeof s !== 'string') continue;
    if (m.op === 'sub') quoteSymbols.add(s);
    else if (m.op === 'unsub') quoteSymbols.delete(s);
  }
  quoteSymbolsChanged = true;
}

const Native = self.WebSocket;
class BenchWebSocket extends Native {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    // A new socket starts with no subscriptions: the service subscribes again after it opens.
    quoteSymbols.clear();
    quoteSymbolsChanged = true;
  }
  override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
    noteClientMessage(data);
    super.send(data);
  }
  override set onmessage(fn: ((this: WebSocket, ev: MessageEvent) => unknown) | null) {
    super.onmessage = fn
      ? wrap(function (this: WebSocket, ev: MessageEvent) {
          absorbed += countMessages(ev.data);
          return fn.call(this, ev);
        })
      : null;
  }
  override get onmessage() {
    return super.onmessage;
  }
  override set onopen(fn: ((this: WebSocket, ev: Event) => unknown) | null) {
    super.onopen = wrap(fn);
  }
  override get onopen() {
    return super.onopen;
  }
  override set onclose(fn: ((this: WebSocket, ev: CloseEvent) => unknown) | null) {
    super.onclose = wrap(fn);
  }
  override get onclose() {
    return super.onclose;
  }
}
scope.WebSocket = BenchWebSocket;
