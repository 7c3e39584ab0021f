/**
 * Points codes (product-spec "Points-code redemption"; docs/levels.md "Points codes").
 *
 * An operator issues a batch: kind (points, or TWD cash), amount per code, expiry, count and a
 * per-member limit. Each code is 16 Crockford base-32 characters from node:crypto randomBytes
 * (80 bits: unguessable) and is stored only as sha256 of its normalised text plus its last four
 * characters (the export's hint); the clear codes are returned once, when the batch is created.
 *
 * Redeeming (one transaction): the member's points row is locked (one member's redemptions queue),
 * the code is claimed by a conditional UPDATE (`redeemed_by is null`: under concurrent requests
 * exactly one wins, the others see it redeemed), the batch's expiry and per-member limit are
 * checked, then the points are journalled, or for a cash code a balanced ledger transaction
 * "points-code exchange" moves the amount from the platform's `promotions` account to the
 * member's `available`. Every refusal is `pointsCodeInvalid` ("points code invalid or expired"):
 * a guesser learns nothing about which codes exist. Failed attempts are counted per member
 * (rate-limiter-flexible, the login throttle's store): past REDEEM_MAX_FAILURES in
 * REDEEM_WINDOW_S every attempt is `tooFrequent` until the window passes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import {
  POINTS_CODE_ALPHABET,
  POINTS_CODE_LENGTH,
  normaliseCode,
  type PointsCodeKind,
} from '../../../contract/rewards';
import type { Db, Tx } from '../../db/client';
import { authThrottle, pointsCodeBatches, pointsCodes, users } from '../../db/schema';
import { audit } from '../common/audit';
import { AppError, fail } from '../common/errors';
import { pageOf } from '../common/paging';
import { ensureMemberAccounts, move, post } from '../ledger/ledger';
import { addPoints, lockPoints } from './points';

/** Failed redemptions a member may make in REDEEM_WINDOW_S before being refused. */
export const REDEEM_MAX_FAILURES = 10;
export const REDEEM_WINDOW_S = 600;

export type BatchRow = typeof pointsCodeBatches.$inferSelect;

/** sha256 hex of a normalised code: what is stored and looked up. */
export const codeSha256 = (code: string) => createHash('sha256').update(code).digest('hex');

/** A new random code (POINTS_CODE_LENGTH characters of POINTS_CODE_ALPHABET, 5 bits each). */
export function newCode(): string {
  const bytes = randomBytes(POINTS_CODE_LENGTH);
  // 256 is a multiple of 32, so byte % 32 is uniform.
  return Array.from(bytes, (b) => POINTS_CODE_ALPHABET[b % 32]).join('');
}

/**
 * Creates a batch of `count` codes in one transaction with its audit entry; returns the batch
 * row and the clear codes (never stored).
 */
export async function createBatch(
  db: Db | Tx,
  operatorId: number,
  input: {
    kind: PointsCodeKind;
    amount: number;
    expiresAt: number;
    count: number;
    perMemberLimit: number;
    note: string;
  },
): Promise<{ batch: BatchRow; codes: string[] }> {
  const codes = Array.from({ length: input.count }, newCode);
  return db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(pointsCodeBatches)
      .values({
        kind: input.kind,
        amount: input.amount,
        expiresAt: new Date(input.expiresAt),
        count: input.count,
        perMemberLimit: input.perMemberLimit,
        note: input.note,
        createdBy: operatorId,
      })
      .returning();
    await tx
      .insert(pointsCodes)
      .values(codes.map((c) => ({ batchId: batch!.id, codeSha256: codeSha256(c), hint: c.slice(-4) })));
    await audit(tx, {
      actorUserId: operatorId,
      action: 'pointsCodes.create',
      targetType: 'pointsCodeBatch',
      targetId: batch!.id,
      after: { ...batch, codes: codes.length },
    });
    return { batch: batch!, codes };
  });
}

/**
 * Redeems `input` (as typed) for `userId` at `nowMs`; see the module docstring.
 * @returns the code's kind and amount (points, or TWD minor) and the member's points balance
 * @throws AppError pointsCodeInvalid (unknown, redeemed, expired or over the batch's per-member
 *   limit; nothing written)
 */
export async function redeem(
  db: Db | Tx,
  userId: number,
  input: string,
  nowMs: number,
): Promise<{ kind: PointsCodeKind; amount: number; pointsBalance: number }> {
  const code = normaliseCode(input);
  if (code.length !== POINTS_CODE_LENGTH) throw fail('pointsCodeInvalid');
  return db.transaction(async (tx) => {
    let balance = await lockPoints(tx, userId);
    const [claimed] = await tx
      .update(pointsCodes)
      .set({ redeemedBy: userId, redeemedAt: new Date(nowMs) })
      .where(and(eq(pointsCodes.codeSha256, codeSha256(code)), sql`${pointsCodes.redeemedBy} is null`))
      .returning();
    if (!claimed) throw fail('pointsCodeInvalid');
    const [batch] = await tx
      .select()
      .from(pointsCodeBatches)
      .where(eq(pointsCodeBatches.id, claimed.batchId));
    if (batch!.expiresAt.getTime() <= nowMs) throw fail('pointsCodeInvalid');
    const [mine] = await tx
      .select({ n: count() })
      .from(pointsCodes)
      .where(and(eq(pointsCodes.batchId, batch!.id), eq(pointsCodes.redeemedBy, userId)));
    if (Number(mine!.n) > batch!.perMemberLimit) throw fail('pointsCodeInvalid');
    if (batch!.kind === 'points') {
      balance = await addPoints(tx, userId, batch!.amount, 'code', claimed.id);
    } else {
      await ensureMemberAccounts(tx, userId);
      await post(tx, {
        type: 'pointsCodeExchange',
        refType: 'pointsCode',
        refId: claimed.id,
        actorUserId: userId,
        postings: move({ platform: 'promotions' }, { userId, purpose: 'available' }, batch!.amount),
      });
    }
    return { kind: batch!.kind, amount: batch!.amount, pointsBalance: balance };
  });
}

/**
 * Redeems through the member's failure counter: refused with `tooFrequent` while the member has
 * REDEEM_MAX_FAILURES failures in the window; a `pointsCodeInvalid` refusal is counted (on `db`,
 * outside the redemption's own rolled-back transaction).
 */
export async function redeemThrottled(
  db: Db | Tx,
  userId: number,
  input: string,
  nowMs: number,
): ReturnType<typeof redeem> {
  const limiter = new RateLimiterDrizzle({
    storeClient: db,
    schema: authThrottle,
    clearExpiredByTimeout: false,
    keyPrefix: 'points-code',
    points: REDEEM_MAX_FAILURES,
    duration: REDEEM_WINDOW_S,
  });
  const key = String(userId);
  const state = await limiter.get(key);
  if (state && state.consumedPoints >= REDEEM_MAX_FAILURES && state.msBeforeNext > 0)
    throw fail('tooFrequent');
  try {
    return await redeem(db, userId, input, nowMs);
  } catch (err) {
    if (err instanceof AppError && err.key === 'pointsCodeInvalid')
      await limiter.consume(key).catch((e: unknown) => {
        if (!(e instanceof RateLimiterRes)) throw e;
      });
    throw err;
  }
}

/** Redeemed codes per batch, for `ids`. */
export async function redeemedCounts(db: Db | Tx, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: pointsCodes.batchId, n: count(pointsCodes.redeemedBy) })
    .from(pointsCodes)
    .where(sql`${pointsCodes.batchId} in ${ids}`)
    .groupBy(pointsCodes.batchId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** A batch's codes for export: hint, redeeming member's account and time, in code order. */
export async function exportBatch(db: Db | Tx, batchId: number) {
  const [batch] = await db.select().from(pointsCodeBatches).where(eq(pointsCodeBatches.id, batchId));
  if (!batch) throw fail('notFound');
  const codes = await db
    .select({ hint: pointsCodes.hint, account: users.account, at: pointsCodes.redeemedAt })
    .from(pointsCodes)
    .leftJoin(users, eq(users.id, pointsCodes.redeemedBy))
    .where(eq(pointsCodes.batchId, batchId))
    .orderBy(pointsCodes.id);
  return { batch, codes };
}

/** Batches, newest first, paged. */
export async function listBatches(db: Db | Tx, page: number, pageSize: number) {
  const newest = db.select().from(pointsCodeBatches).orderBy(desc(pointsCodeBatches.id));
  const { items: rows, total } = await pageOf(db, newest, { table: pointsCodeBatches }, { page, pageSize });
  return { rows, total };
}
