/**
 * Placeholder handlers for endpoints whose module is still being written: each refuses with
 * `operationFailed` (409). Nothing may ship calling this; `grep -r "todo(" server` must be empty.
 */
import type { EndpointName } from '../../contract/api';
import type { Handlers } from './context';
import { fail } from './errors';

/** Handlers that refuse every call, for the named endpoints. */
export function todo<N extends EndpointName>(...names: N[]): Pick<Handlers, N> {
  const out = {} as Record<string, unknown>;
  for (const n of names)
    out[n] = async () => {
      throw fail('operationFailed', 409);
    };
  return out as Pick<Handlers, N>;
}
