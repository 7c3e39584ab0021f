/**
 * A refused request: carries a message key from contract/errors.ts and the HTTP status it is
 * answered with (4xx). Thrown anywhere in a handler; the envelope layer turns it into
 * `{status: 0, msg: key, data}` (data null unless given). Throwing rolls back the surrounding DB transaction.
 */
import type { ErrorKey } from '../../contract/errors';

/** A refused request with its message key and 4xx status. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly httpStatus: 400 | 401 | 403 | 404 | 409 | 422 | 429 = 422,
    /** Sent as the envelope's `data` (null by default), e.g. a trading refusal's `{ fix }`. */
    readonly data: unknown = null,
  ) {
    super(key);
  }
}

/** Shorthand: `throw fail('insufficientBalance')`. */
export const fail = (key: ErrorKey, httpStatus?: AppError['httpStatus'], data?: unknown) =>
  new AppError(key, httpStatus, data);
