/**
 * Walks zod request schemas of contract/api.ts for the security tests: finds the id fields and
 * builds a body the schema accepts, so a test can vary one field of every endpoint without a
 * hand-written list.
 */

/** Keys from the body's root to one field; array elements are `0`. */
export type SchemaPath = string[];

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional/nullable/default/… wrappers (a pipe: its input side). */
export function unwrap(schema: unknown): unknown {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (WRAPPERS.has(def.type)) s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else return s;
  }
}

/** An id field's name: `id`, `…Id` or `…Ids` (camelCase). */
export const isIdKey = (key: string): boolean => /^id$|[a-z]Ids?$/.test(key);

/**
 * Every id field of a request schema: its path and its schema unwrapped (for `…Ids`, the array's
 * element, at path `…Ids.0`).
 */
export function idPaths(schema: unknown, at: SchemaPath = []): Array<{ at: SchemaPath; leaf: unknown }> {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === 'object') {
    return Object.entries(def.shape as Record<string, unknown>).flatMap(([k, v]) => {
      if (!isIdKey(k)) return idPaths(v, [...at, k]);
      const inner = unwrap(v);
      const innerDef = defOf(inner);
      return innerDef.type === 'array'
        ? [{ at: [...at, k, '0'], leaf: unwrap(innerDef.element) }]
        : [{ at: [...at, k], leaf: inner }];
    });
  }
  if (def.type === 'array') return idPaths(def.element, [...at, '0']);
  return [];
}

const safe = (schema: unknown, value: unknown) =>
  (schema as { safeParse(v: unknown): { success: boolean } }).safeParse(value).success;

const NUMBERS = [1, 0, 10, 100, 500, 1_000, 100_000, 2_000_000_000];
const STRINGS = [
  '2330',
  'a1',
  'a'.repeat(32),
  '0921000001',
  'password123',
  '246810',
  '2026-01-01',
  'ABCD-EFGH-JKMN-PQRS',
  'TESTCODE',
  '013',
  '0077',
  'x',
];

/**
 * A value `schema` accepts: required object fields filled in, optional ones left out (an id
 * field is filled in by the caller), numbers and strings from small candidate lists. Returns
 * undefined when none of the candidates fits (the caller supplies a body by hand).
 */
export function sampleValue(schema: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) {
        if (safe(v, undefined)) continue;
        out[k] = sampleValue(v);
      }
      return out;
    }
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
    case 'default':
    case 'prefault':
      return sampleValue(def.innerType);
    case 'pipe':
      return sampleValue(def.in);
    case 'array':
      return [sampleValue(def.element)];
    case 'union':
      return sampleValue((def.options as unknown[])[0]);
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'boolean':
      return true;
    case 'number':
      return NUMBERS.find((n) => safe(schema, n));
    case 'string':
      return STRINGS.find((t) => safe(schema, t));
    default:
      return undefined;
  }
}

/** A body for a request schema (an object schema: an object). */
export const sampleBody = (schema: unknown): Record<string, unknown> =>
  (sampleValue(unwrap(schema)) ?? {}) as Record<string, unknown>;

/** A copy of `body` with `value` at `at` (missing objects and arrays made on the way). */
export function withValue(
  body: Record<string, unknown>,
  at: SchemaPath,
  value: unknown,
): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: Record<string, unknown> = copy;
  at.slice(0, -1).forEach((k, i) => {
    if (node[k] === undefined || node[k] === null) node[k] = at[i + 1] === '0' ? [] : {};
    node = node[k] as Record<string, unknown>;
  });
  node[at[at.length - 1]!] = value;
  return copy;
}
