/**
 * Password hashing: argon2id (@node-rs/argon2) at the OWASP Password Storage Cheat Sheet's
 * first argon2id setting (m = 19 MiB, t = 2, p = 1), 16-byte salt, 32-byte tag, stored in the PHC
 * form `$argon2id$v=19$m=19456,t=2,p=1$salt$tag`.
 *
 * Hashes from before (`scrypt$N$r$p$saltB64$hashB64`, N = 2^14, r = 8, p = 1: below today's
 * guidance) still verify; `needsRehash` tells the caller to store a fresh argon2id hash once the
 * password is known to be right (login, funds password). Verification is constant-time in both
 * forms. `verifyDummy` spends the time of a real verification for an account that does not
 * exist, so the answer's timing does not reveal which accounts do.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hash as argonHash, parseOptions, verify as argonVerify, type Algorithm } from '@node-rs/argon2';

/** argon2id (the package's enum is `const`, unusable under isolatedModules). */
const ARGON2ID = 2 as Algorithm;
/** The parameters every new hash uses; a stored hash with weaker ones is rehashed. */
export const ARGON2_PARAMS = {
  algorithm: ARGON2ID,
  /** KiB: 19 MiB. */
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const;

const SCRYPT_KEYLEN = 32;

function scrypt(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, SCRYPT_KEYLEN, { ...opts, maxmem: 256 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** Hashes a password (argon2id, fresh random salt); returns the stored PHC string. */
export function hashPassword(password: string): Promise<string> {
  return argonHash(password, ARGON2_PARAMS);
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, saltB64, hashB64] = stored.split('$');
  if (!saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const key = await scrypt(password, Buffer.from(saltB64, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when `password` matches the stored hash (argon2id or legacy scrypt); false for a malformed one. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  if (!stored.startsWith('$argon2')) return false;
  try {
    return await argonVerify(stored, password);
  } catch {
    return false;
  }
}

/** True when the stored hash is not argon2id at ARGON2_PARAMS or stronger (store a new hash after a right password). */
export function needsRehash(stored: string): boolean {
  if (!stored.startsWith('$argon2id$')) return true;
  try {
    const o = parseOptions(stored);
    return (
      o.memoryCost < ARGON2_PARAMS.memoryCost ||
      o.timeCost < ARGON2_PARAMS.timeCost ||
      o.outputLen < ARGON2_PARAMS.outputLen
    );
  } catch {
    return true;
  }
}

let dummy: Promise<string> | null = null;

/**
 * Verifies `password` against a hash of a random secret at the current parameters and returns
 * false: the work (and time) of a wrong password, for an account that does not exist.
 */
export async function verifyDummy(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(18).toString('base64url'));
  await verifyPassword(password, await dummy);
  return false;
}

/** A legacy scrypt hash (N = 2^14, r = 8, p = 1) as stored before argon2id; for tests of the rehash. */
export async function legacyScryptHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { N: 16_384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}
