/**
 * Recognising database errors a handler turns into a 4xx answer. Drizzle wraps the driver's error
 * (`DrizzleQueryError.cause`); node-postgres and PGlite both report the SQLSTATE in `code` and
 * the violated constraint or index in `constraint`, so the chain of causes is searched.
 */

interface PgLikeError {
  code?: unknown;
  constraint?: unknown;
  column?: unknown;
  cause?: unknown;
}

/** The first error in `err`'s chain of causes (at most 5 deep) with SQLSTATE `code`. */
function withCode(err: unknown, code: string): PgLikeError | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const pe = e as PgLikeError;
    if (pe.code === code) return pe;
    e = pe.cause;
  }
  return undefined;
}

/**
 * True when `err` (or one of its causes) is a unique violation (SQLSTATE 23505), optionally of
 * the named unique index or constraint (drivers that do not report it still count as a match).
 * A PostgreSQL transaction is aborted by such an error, so call this on the error thrown out of
 * `db.transaction(...)`, not inside it.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const pe = withCode(err, '23505');
  return !!pe && (!constraint || pe.constraint === undefined || pe.constraint === constraint);
}

/**
 * True when `err` (or one of its causes) is a NOT NULL violation (SQLSTATE 23502) of `column`
 * (drivers that do not report the column still count as a match).
 */
export function isNotNullViolation(err: unknown, column: string): boolean {
  const pe = withCode(err, '23502');
  return !!pe && (pe.column === undefined || pe.column === column);
}

/**
 * True when `err` (or one of its causes) is a CHECK violation (SQLSTATE 23514) of `constraint`
 * (drivers that do not report the constraint still count as a match).
 */
export function isCheckViolation(err: unknown, constraint: string): boolean {
  const pe = withCode(err, '23514');
  return !!pe && (pe.constraint === undefined || pe.constraint === constraint);
}
