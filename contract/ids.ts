/**
 * The one schema for a row id sent by a client. Every id field of every request in contract/ is
 * `idSchema` (a `serial`, int4 column: 1 … 2^31 − 1) or `bigIdSchema` (a `bigserial`, int8 column
 * read in number mode: 1 … 2^53 − 1), so an id the column cannot hold is a 400 `parameterError` at
 * the edge, never a database overflow answered 500. tests/security/ids.test.ts finds every field
 * named `id`, `…Id` or `…Ids` in every request of contract/api.ts and checks it is one of these.
 */
import { z } from 'zod';

/** Largest value of a PostgreSQL `integer` (int4, `serial`) column: 2^31 − 1. */
export const INT4_MAX = 2_147_483_647;

/** Id of a row in an int4 (`serial`) table: a positive integer ≤ INT4_MAX. */
export const idSchema = z.number().int().positive().max(INT4_MAX);

/**
 * Id of a row in an int8 (`bigserial`, number mode) table: risk events, member notices, support
 * messages. A positive integer ≤ Number.MAX_SAFE_INTEGER (larger ones do not survive JSON as
 * numbers).
 */
export const bigIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
