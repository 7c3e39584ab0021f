/**
 * The measuring half of the stream benchmark, injected into both bench pages (ours and the naive
 * baseline) with `page.addInitScript` before any page script runs, so both are measured the same
 * way. It must stay self-contained: Playwright ships the function's source text, not its closure.
 *
 * What it records (reset at the start of each measured window):
 * - frame intervals: the difference between consecutive requestAnimationFrame timestamps;
 * - long tasks (PerformanceObserver 'longtask', ≥ 50 ms, main thread) and long animation frames
 *   ('long-animation-frame', Chromium ≥ 123);
 * - feed-to-paint: a page calls `__bench.committed(tsMs)` when React committed a visible row showing
 *   a quote generated at wall-clock `tsMs`. The first such call in a frame flips the width of a
 *   1-px probe (in a size-contained box, so only that box is laid out again) watched by a
 *   ResizeObserver, which fires in the rendering step of the frame that will paint the commit,
 *   after layout, whether the commit happened in an animation-frame callback or in a task between
 *   frames. A task posted from there runs once that frame's main-thread rendering (style, layout,
 *   paint) is done; latency = that moment (wall clock: timeOrigin + performance.now()) − tsMs.
 *   Rasterisation and display add up to one more frame that this does not see. Frames without a
 *   commit are left alone (flipping the probe every frame would force a rendering update on every
 *   frame, ~1.3 ms each on a 2,000-row page, unthrottled);
 * - counters the page bumps: messages absorbed, store dispatches;
 * - interactions: Event Timing entries (durationThreshold 16 ms) and, for every click, the time
 *   from the click's event timestamp to the end of the next frame's rendering (a task posted from
 *   the next animation frame runs after that frame's style, layout and paint).
 */

/** The page-side API the bench pages and the driver use (window.__bench). */
export interface BenchHooks {
  /**
   * A visible row showing a quote generated at wall-clock `tsMs` was just committed to the DOM;
   * `receivedAtMs`: when it reached the market worker, if the page knows (splits the latency).
   */
  committed(tsMs: number, receivedAtMs?: number): void;
  /** `n` realtime messages were handled (by the worker or, in the naive page, the main thread). */
  absorbed(n: number): void;
  /** One store dispatch. */
  dispatched(): void;
  /** The market worker spent `ms` in task callbacks (before its throttling stretch). */
  workerTask(ms: number): void;
  /** The page is subscribed and showing data. */
  ready: boolean;
  /** Free-form page facts for the report (symbol count, page kind, errors). */
  info: Record<string, unknown>;
  /** Starts a measured window: clears every sample and counter. */
  reset(): void;
  /** Everything recorded since reset(). */
  collect(): BenchSample;
}

export interface BenchSample {
  /** Start (performance.now) and length of the window (ms). */
  startMs: number;
  windowMs: number;
  frameIntervalsMs: number[];
  longTasks: { startMs: number; durationMs: number }[];
  longFrames: {
    startMs: number;
    durationMs: number;
    blockingMs: number;
    scriptMs: number;
    /** From the start of style and layout to the end of the frame (style, layout, paint). */
    renderMs: number;
    /** The frame's longest scripts: invoker (e.g. `Window.requestAnimationFrame`), function, file. */
    scripts: { invoker: string; fn: string; src: string; durationMs: number }[];
  }[];
  feedToPaintMs: number[];
  /** The same latency split at the worker's receipt: feed → worker, and worker → paint. */
  feedToWorkerMs: number[];
  workerToPaintMs: number[];
  absorbed: number;
  dispatches: number;
  workerTaskMs: number;
  events: { name: string; durationMs: number; interactionId: number }[];
  clickToPaintMs: number[];
  loafSupported: boolean;
  longtaskSupported: boolean;
}

declare global {
  interface Window {
    __bench: BenchHooks;
  }
}

/** Installed by the driver as an init script; see the module docstring. */
export function installBenchHooks(): void {
  const MAX_SAMPLES = 200_000;
  const wallNow = (t: number) => performance.timeOrigin + t;
  let t0 = performance.now();
  let frames: number[] = [];
  let longTasks: BenchSample['longTasks'] = [];
  let longFrames: BenchSample['longFrames'] = [];
  let latencies: number[] = [];
  let toWorker: number[] = [];
  let fromWorker: number[] = [];
  let events: BenchSample['events'] = [];
  let clicks: number[] = [];
  let absorbed = 0;
  let dispatches = 0;
  let workerTaskMs = 0;
  let lastFrame = -1;
  /** Timestamps of quotes committed to visible rows since the last frame (and worker receipts). */
  let pending: number[] = [];
  let pendingRx: number[] = [];

  const push = <T>(arr: T[], v: T) => {
    if (arr.length < MAX_SAMPLES) arr.push(v);
  };

  // Once per frame, after animation-frame callbacks and layout: the commits so far are painted in
  // this frame; the posted task runs when its main-thread rendering is done.
  const painted = new MessageChannel();
  let inFlight: number[] = [];
  let inFlightRx: number[] = [];
  painted.port1.onmessage = () => {
    const now = wallNow(performance.now());
    for (let i = 0; i < inFlight.length; i++) {
      const ts = inFlight[i]!;
      const rx = inFlightRx[i]!;
      push(latencies, now - ts);
      if (!Number.isNaN(rx)) {
        push(toWorker, rx - ts);
        push(fromWorker, now - rx);
      }
    }
    inFlight = [];
    inFlightRx = [];
  };
  // The probe sits in a fixed, size-contained box: a relayout boundary, so flipping its width lays
  // out that box only, never the page around it.
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText =
    'position:fixed;left:0;top:0;width:4px;height:4px;contain:strict;pointer-events:none;opacity:0';
  const probe = document.createElement('div');
  probe.style.cssText = 'height:1px;width:1px';
  box.appendChild(probe);
  let probeWide = false;
  new ResizeObserver(() => {
    if (pending.length > 0) {
      inFlight = inFlight.concat(pending);
      inFlightRx = inFlightRx.concat(pendingRx);
      pending = [];
      pendingRx = [];
      painted.port2.postMessage(0);
    }
  }).observe(probe);

  const onFrame = (ts: number) => {
    if (lastFrame >= 0) push(frames, ts - lastFrame);
    lastFrame = ts;
    requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);

  let longtaskSupported = false;
  let loafSupported = false;
  const supported = (PerformanceObserver as unknown as { supportedEntryTypes?: string[] })
    .supportedEntryTypes;
  try {
    if (supported?.includes('longtask')) {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          if (e.startTime >= t0) push(longTasks, { startMs: e.startTime, durationMs: e.duration });
      }).observe({ type: 'longtask' });
      longtaskSupported = true;
    }
  } catch {
    // not supported: reported as such
  }
  try {
    if (supported?.includes('long-animation-frame')) {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (e.startTime < t0) continue;
          const loaf = e as PerformanceEntry & {
            blockingDuration?: number;
            styleAndLayoutStart?: number;
            scripts?: {
              duration: number;
              invoker?: string;
              sourceFunctionName?: string;
              sourceURL?: string;
            }[];
          };
          const scripts = loaf.scripts ?? [];
          const scriptMs = scripts.reduce((s, x) => s + x.duration, 0);
          push(longFrames, {
            startMs: e.startTime,
            durationMs: e.duration,
            blockingMs: loaf.blockingDuration ?? 0,
            scriptMs,
            renderMs: loaf.styleAndLayoutStart ? e.startTime + e.duration - loaf.styleAndLayoutStart : 0,
            scripts: [...scripts]
              .sort((a, b) => b.duration - a.duration)
              .slice(0, 3)
              .map((x) => ({
                invoker: x.invoker ?? '',
                fn: x.sourceFunctionName ?? '',
                src: (x.sourceURL ?? '').split('/').pop() ?? '',
                durationMs: x.duration,
              })),
          });
        }
      }).observe({ type: 'long-animation-frame' });
      loafSupported = true;
    }
  } catch {
    // not supported: reported as such
  }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const ev = e as PerformanceEntry & { interactionId?: number };
        push(events, { name: e.name, durationMs: e.duration, interactionId: ev.interactionId ?? 0 });
      }
    }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  } catch {
    // Event Timing missing: the click-to-paint measure below still works
  }

  // Click → next paint: the click's own timestamp to a task posted from the next animation frame.
  addEventListener(
    'click',
    (ev) => {
      const start = ev.timeStamp;
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => push(clicks, performance.now() - start);
        ch.port2.postMessage(0);
      });
    },
    { capture: true },
  );

  window.__bench = {
    ready: false,
    info: {},
    committed(tsMs: number, receivedAtMs?: number) {
      if (pending.length === 0) {
        if (!box.isConnected) document.documentElement.appendChild(box);
        probeWide = !probeWide;
        probe.style.width = probeWide ? '2px' : '1px';
      }
      if (pending.length < 10_000) {
        pending.push(tsMs);
        pendingRx.push(receivedAtMs ?? Number.NaN);
      }
    },
    absorbed(n: number) {
      absorbed += n;
    },
    dispatched() {
      dispatches++;
    },
    workerTask(ms: number) {
      workerTaskMs += ms;
    },
    reset() {
      t0 = performance.now();
      frames = [];
      longTasks = [];
      longFrames = [];
      latencies = [];
      toWorker = [];
      fromWorker = [];
      events = [];
      clicks = [];
      absorbed = 0;
      dispatches = 0;
      workerTaskMs = 0;
      pending = [];
      pendingRx = [];
      inFlight = [];
      inFlightRx = [];
    },
    collect(): BenchSample {
      return {
        startMs: t0,
        windowMs: performance.now() - t0,
        frameIntervalsMs: frames,
        longTasks,
        longFrames,
        feedToPaintMs: latencies,
        feedToWorkerMs: toWorker,
        workerToPaintMs: fromWorker,
        absorbed,
        dispatches,
        workerTaskMs,
        events,
        clickToPaintMs: clicks,
        loafSupported,
        longtaskSupported,
      };
    },
  };
}
