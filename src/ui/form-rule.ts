/**
 * An antd-mobile Form rule from a check that returns a translation key (or null when fine), so a
 * screen's validators stay plain functions that unit tests can call.
 */
import type { TFunction } from 'i18next';

export function keyRule<V = string | undefined>(
  t: TFunction,
  check: (v: V) => string | null,
  params?: Record<string, unknown>,
) {
  return {
    validator: async (_: unknown, v: V) => {
      const key = check(v);
      if (key) throw new Error(t(key, params));
    },
  };
}
