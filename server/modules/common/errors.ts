/**
 * A refused request: carries a message key from contract/errors.ts; its HTTP status comes from
 * the one table `ERROR_STATUS` there (never chosen at the throw site). Thrown anywhere in a
 * handler; the envelope layer turns it into `{status: 0, msg: key, data}` (data null unless
 * given). Throwing rolls back the surrounding DB transaction.
 */
import { ERROR_STATUS, type ErrorKey, type ErrorStatus } from '../../../contract/errors';

/** A refused request with its message key; `httpStatus` is `ERROR_STATUS[key]`. */
export class AppError extends Error {
  readonly httpStatus: ErrorStatus;
  constructor(
    readonly key: ErrorKey,
    /** Sent as the envelope's `data` (null by default), e.g. a trading refusal's `{ fix }`. */
    readonly data: unknown = null,
  ) {
    super(key);
    this.httpStatus = ERROR_STATUS[key];
  }
}

/** Shorthand: `throw fail('insufficientBalance')`, or `fail(key, data)` with an envelope payload. */
export const fail = (key: ErrorKey, data?: unknown) => new AppError(key, data);
