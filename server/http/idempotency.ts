/**
 * Request-level idempotency for money-moving endpoints (contract/api.ts `idempotent: true`).
 *
 * The client sends an `idempotency-key` header (8–64 of [A-Za-z0-9_-]) with each money-moving
 * request and reuses it on a retry. `runIdempotent` opens ONE database transaction that claims
 * (user, key) with a row in `idempotency_keys`, runs the handler on that transaction (the
 * handler's own `db.transaction(...)` calls become savepoints inside it) and stores the answer
 * (success, or a 4xx refusal) before committing. So the key, the business change, its ledger
 * postings and the stored answer commit together or not at all: a process killed mid-request
 * leaves nothing behind and the retry runs afresh; it can never apply twice.
 * Later requests with the same key:
 * - same endpoint and body (sha256 of the validated body): the stored answer, nothing runs;
 * - a different endpoint or body: 422 `keyMismatch`, nothing runs;
 * - while the first is still running: they wait on the key's row lock, then get the stored answer.
 * A server error (not a refusal) rolls everything back, so the retry runs again.
 * Order entry keeps its key in the order row instead (rowKey; contract/api.ts `'orderRow'`).
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { IDEMPOTENCY_KEY_RE } from '../../contract/constants';
import { ERROR_STATUS, type ErrorKey } from '../../contract/errors';
import type { Db, Tx } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { AppError } from '../modules/common/errors';

/** The answer to send: HTTP status and envelope. */
export interface Answer {
  http: number;
  body: unknown;
}

/** sha256 hex of a canonical JSON form (object keys sorted) of the validated body. */
export function bodyHash(body: unknown): string {
  const canon = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
        )
      : Array.isArray(v)
        ? v.map(canon)
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canon(body)))
    .digest('hex');
}

/** The idempotency of an order entry request, carried into its order row (contract/api.ts 'orderRow'). */
export interface RowKey {
  /** The member's key (the `idempotency-key` header). */
  key: string;
  /** bodyHash of the endpoint and the validated body: a retry must match it. */
  requestSha256: string;
}

/**
 * The key and request hash of an `'orderRow'` endpoint's request, or null when the header is
 * missing or malformed (the caller answers `idempotencyKeyRequired` and runs nothing).
 */
export function rowKey(header: string | undefined, endpoint: string, body: unknown): RowKey | null {
  if (!header || !IDEMPOTENCY_KEY_RE.test(header)) return null;
  return { key: header, requestSha256: bodyHash({ endpoint, body }) };
}

const refusal = (msg: ErrorKey, data: unknown = null): Answer => ({
  http: ERROR_STATUS[msg],
  body: { status: 0, msg, data },
});

/**
 * Runs `handle(tx)` at most once per (user, key) and returns its answer, or the stored answer of
 * the first request with this key.
 * @param handle runs the endpoint on the transaction; returns the success envelope; a thrown
 *   AppError becomes a stored refusal; any other error rolls back and propagates (a 500).
 */
export async function runIdempotent(
  db: Db,
  userId: number,
  key: string | undefined,
  endpoint: string,
  body: unknown,
  handle: (tx: Tx) => Promise<unknown>,
): Promise<Answer> {
  if (!key || !IDEMPOTENCY_KEY_RE.test(key)) return refusal('idempotencyKeyRequired');
  const hash = bodyHash(body);
  return db.transaction(async (tx) => {
    // Waits here while another request holding the same key is still running.
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ userId, key, endpoint, bodySha256: hash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (!inserted.length) {
      const [prior] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      if (!prior || prior.endpoint !== endpoint || prior.bodySha256 !== hash) return refusal('keyMismatch');
      if (prior.httpStatus === null || prior.response === null) return refusal('tooFrequent');
      return { http: prior.httpStatus, body: JSON.parse(prior.response) };
    }
    let answer: Answer;
    try {
      answer = { http: 200, body: await handle(tx) };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      answer = refusal(err.key, err.data);
    }
    await tx
      .update(idempotencyKeys)
      .set({ state: 'done', httpStatus: answer.http, response: JSON.stringify(answer.body) })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    return answer;
  });
}
