import { z } from 'zod';
import { PAGE_SIZE } from './constants';
import { ERROR_KEYS } from './errors';

/**
 * The response envelope of every `/api/vue/*` call (product-spec §3 "Response shape", §7):
 * `status` 1 is success, 0 is a refused request; `msg` is a message key (contract/errors.ts)
 * or a success key; `data` the payload or null.
 */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ status: z.union([z.literal(1), z.literal(0)]), msg: z.string(), data: data.nullable() });

export type Envelope<T> = { status: 1 | 0; msg: string; data: T | null };

export const errorKeySchema = z.enum(ERROR_KEYS);

export { PAGE_SIZE } from './constants';

/** A page request: `page` starts at 1. */
export const pageQuery = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(200).default(PAGE_SIZE),
});

export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
