/** Site configuration (product-spec §3 "Site configuration", §7 `/common/config`). */
import { z } from 'zod';

export const configReq = z.object({ type: z.literal('all').default('all') });
/** A list of {name, value} items the client merges into one object; `leverages` is a comma list. */
export const configRes = z.array(z.object({ name: z.string(), value: z.string() }));
