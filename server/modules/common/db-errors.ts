/**
 * Recognising database errors a handler turns into a 4xx answer. Drizzle wraps the driver's error
 * (`DrizzleQueryError.cause`); node-postgres and PGlite both report the SQLSTATE in `code` and
 * the violated constraint or index in `constraint`, so the chain of causes is searched.
 */

interface PgLikeError {
  code?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/**
 * True when `err` (or one of its causes) is a unique violation (SQLSTATE 23505), optionally of
 * the named unique index or constraint. A PostgreSQL transaction is aborted by such an error, so
 * call this on the error thrown out of `db.transaction(...)`, not inside it.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const pe = e as PgLikeError;
    if (pe.code === '23505') {
      if (!constraint) return true;
      // Drivers that do not report the constraint still count as a match.
      return pe.constraint === undefined || pe.constraint === constraint;
    }
    e = pe.cause;
  }
  return false;
}
