/**
 * The replay's intraday seed of this install. The replay reproduces each real day's O/H/L/C from
 * files in the repository; with a seed everybody knows (it used to default to 1) anyone could
 * also rebuild every intraday path ahead of the clock (replay.ts is a pure function of seed,
 * symbol and day) and trade on it. So, unless MARKET_SEED pins it (tests, benchmarks), each
 * install draws its own secret on first start and keeps it in the database (`install_secrets`
 * row `marketSeed`, migration 0028): a restart replays the same paths, another install different
 * ones. No endpoint reads that table.
 *
 * The secret is a random safe integer in 1 … 2^53 − 1 (crypto.randomBytes, 53 bits), the type the
 * path generator takes (prng.ts hashes it with the symbol and date).
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { installSecrets } from '../db/schema';

/** The `install_secrets` row holding the seed. */
export const MARKET_SEED_SECRET = 'marketSeed';

/** A fresh random seed: 53 random bits as a safe integer ≥ 1. */
export function randomSeed(): number {
  const b = randomBytes(8);
  // 21 high bits + 32 low bits = 53 bits, exact in a double.
  const n = (b.readUInt32BE(0) & 0x1f_ffff) * 2 ** 32 + b.readUInt32BE(4);
  return n === 0 ? 1 : n;
}

/**
 * The seed for the feed: `configured` (MARKET_SEED) when set, else this install's secret, created
 * on the first call against a database and read back on every later one (also by a second process
 * starting at the same time: the insert does nothing when the row exists, and the row is read).
 * @throws RangeError when the stored value is not a positive safe integer (a damaged row)
 */
export async function installSeed(db: Db, configured: number | null): Promise<number> {
  if (configured !== null) return configured;
  await db
    .insert(installSecrets)
    .values({ name: MARKET_SEED_SECRET, value: String(randomSeed()) })
    .onConflictDoNothing();
  const [row] = await db.select().from(installSecrets).where(eq(installSecrets.name, MARKET_SEED_SECRET));
  const seed = Number(row?.value);
  if (!Number.isSafeInteger(seed) || seed < 1) throw new RangeError('install_secrets.marketSeed is damaged');
  return seed;
}
