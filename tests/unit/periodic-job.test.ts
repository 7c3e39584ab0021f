/** server/modules/common/periodic.ts: runs never overlap, a failure does not stop the next. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { periodicJob } from '../../server/modules/common/periodic';

afterEach(() => vi.useRealTimers());

describe('periodicJob', () => {
  it('runs one at a time, in call order, and a failed run does not stop the next', async () => {
    const log: string[] = [];
    let active = 0;
    let n = 0;
    const job = periodicJob(
      async () => {
        const k = ++n;
        active++;
        log.push(`start ${k} (${active} active)`);
        await new Promise((r) => setTimeout(r, 5));
        active--;
        if (k === 2) throw new Error('boom');
        return k;
      },
      { intervalMs: 1_000, what: 'test job' },
    );
    const runs = [job.run(), job.run(), job.run()];
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : 'failed'))).toEqual([1, 'failed', 3]);
    expect(log).toEqual(['start 1 (1 active)', 'start 2 (1 active)', 'start 3 (1 active)']);
  });

  it('start runs once and then every interval, logging a failed timer run; stop ends the timer', async () => {
    vi.useFakeTimers();
    const errors: string[] = [];
    let n = 0;
    const job = periodicJob(
      async () => {
        n++;
        if (n === 2) throw new Error('boom');
        return n;
      },
      { intervalMs: 1_000, what: 'test job', log: (msg) => errors.push(msg) },
    );
    await job.start();
    expect(n).toBe(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(n).toBe(4);
    expect(errors).toEqual(['test job failed']);
    job.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(n).toBe(4);
  });

  it('start without the timer runs once only', async () => {
    vi.useFakeTimers();
    let n = 0;
    const job = periodicJob(async () => ++n, { intervalMs: 1_000, what: 'test job' });
    await job.start({ timer: false });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(n).toBe(1);
  });
});
