/**
 * Small deterministic pseudo-random number generator for the replay simulator.
 *
 * - `hashSeed(...parts)`: cyrb128 string hash (public-domain algorithm by bryc) of the parts
 *   joined with '|', giving four 32-bit words.
 * - `createRng(...parts)`: sfc32 (Chris Doty-Humphrey's Small Fast Counter, from PractRand)
 *   seeded with that hash, warmed up 12 rounds.
 *
 * Same parts → same sequence on every platform (only 32-bit integer ops). Not cryptographic.
 * Floats produced here feed the random path generator only; prices are snapped to the tick table
 * before they leave it (see replay.ts).
 */

/** cyrb128 hash of the parts joined with '|' → four unsigned 32-bit words. */
export function hashSeed(...parts: Array<string | number>): [number, number, number, number] {
  const str = parts.join('|');
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A seeded random source. */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n) (n ≥ 1). */
  int(n: number): number;
  /** Standard normal N(0, 1) (Box–Muller). */
  normal(): number;
  /** Exponential with mean 1. */
  exp(): number;
}

/** sfc32 generator seeded from `hashSeed(...parts)`. */
export function createRng(...parts: Array<string | number>): Rng {
  let [a, b, c, d] = hashSeed(...parts);
  const u32 = (): number => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) u32();
  const next = () => u32() / 4294967296;
  let spare: number | null = null;
  return {
    next,
    int: (n) => Math.floor(next() * n),
    normal: () => {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      let u = 0;
      while (u === 0) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    exp: () => {
      let u = 0;
      while (u === 0) u = next();
      return -Math.log(u);
    },
  };
}

/**
 * Stateless 32-bit integer hash of two words (murmur3 finaliser on a ^ rotated b): used for
 * per-trade decisions (e.g. a coin flip for trade i) that must not depend on call order.
 */
export function mix32(a: number, b: number): number {
  let h = (a ^ Math.imul((b << 16) | (b >>> 16), 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
