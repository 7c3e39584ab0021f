/**
 * The copy trader's timer: runs mirroring.ts mirrorPass every COPY_INTERVAL_MS, one pass at a time
 * (a pass still running when the next is due is not overlapped). Tests call `runOnce`.
 */
import { mirrorPass } from './mirroring';
import type { CopyDeps } from './pool';

/** Wall ms between mirroring passes. */
export const COPY_INTERVAL_MS = 1_000;

export interface CopyTrader {
  start(opts: { timer: boolean }): void;
  stop(): void;
  /** One mirroring pass (waits for a pass already running first). */
  runOnce(): Promise<void>;
  /** Resolves when the pass running now (if any) has finished. */
  idle(): Promise<void>;
}

export function createCopyTrader(deps: CopyDeps): CopyTrader {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const runOnce = () => {
    running = running.then(() =>
      mirrorPass(deps).catch((err) => deps.log?.('copy trading pass failed', err)),
    );
    return running;
  };
  return {
    start({ timer: on }) {
      if (on && !timer) timer = setInterval(() => void runOnce(), COPY_INTERVAL_MS);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    runOnce,
    idle: () => running,
  };
}
