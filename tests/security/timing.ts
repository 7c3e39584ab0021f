/**
 * Timing helpers of the security tests: paired tries of two request kinds (ABBA order), each
 * timed in wall ms and this process's CPU ms, compared by the median of the paired differences.
 */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
/**
 * Median of the differences a[i] − b[i] of paired tries: the load of a shared machine moves both
 * members of a pair alike, so it cancels out, where a difference of two medians keeps it.
 */
export const pairedDifference = (a: number[], b: number[]) => median(a.map((x, i) => x - b[i]!));
/** One timed try: wall milliseconds and this process's CPU milliseconds (all threads: argon2 runs on libuv's). */
export interface Sample {
  wall: number;
  cpu: number;
}
export const timed = async <T>(f: () => Promise<T>): Promise<[Sample, T]> => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [{ wall, cpu: (c.user + c.system) / 1_000 }, out];
};

/**
 * Times `f` then `g` on even rounds and `g` then `f` on odd ones (ABBA, so neither kind always
 * runs first, e.g. right after a garbage collection the other one caused).
 */
export async function pair<A, B>(
  f: () => Promise<A>,
  g: () => Promise<B>,
  round: number,
): Promise<[[Sample, A], [Sample, B]]> {
  if (round % 2 === 0) {
    const x = await timed(f);
    return [x, await timed(g)];
  }
  const y = await timed(g);
  return [await timed(f), y];
}

/** Median wall and CPU of each kind and the median paired differences (a − b), logged. */
export function compare(label: string, a: Sample[], b: Sample[]) {
  const wall = pairedDifference(
    a.map((x) => x.wall),
    b.map((x) => x.wall),
  );
  const cpu = pairedDifference(
    a.map((x) => x.cpu),
    b.map((x) => x.cpu),
  );
  const m = (xs: Sample[], k: keyof Sample) => median(xs.map((x) => x[k])).toFixed(1);
  console.log(
    `${label}: wall ${m(a, 'wall')} vs ${m(b, 'wall')} ms (median paired difference ${wall.toFixed(1)}), ` +
      `CPU ${m(a, 'cpu')} vs ${m(b, 'cpu')} ms (${cpu.toFixed(1)}), ${a.length} pairs`,
  );
  return { wall, cpu };
}
