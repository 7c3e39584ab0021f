/**
 * Ids at the edge, on PGlite and PostgreSQL: every field named `id`, `…Id` or `…Ids` in every
 * request schema of contract/api.ts (found by walking the schemas, so a new endpoint is covered
 * without editing this file) is
 * - one of the shared schemas of contract/ids.ts (numbers) or the notice id (`a<n>`/`m<n>`), and
 * - answered below 500 with a `{status: 0, msg}` envelope whose key is translated in tw and en for
 *   2^31, 2^63, −1, 0, 1.5, "abc", 1e309 and null; the largest id the schema takes (2^31 − 1 or
 *   2^53 − 1) reaches the handler and is answered below 500 too (no such row, not an overflow).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type EndpointName } from '../../contract/api';
import { bigIdSchema, idSchema, INT4_MAX } from '../../contract/ids';
import { noticeIdSchema } from '../../contract/notices';
import { uploadIdSchema } from '../../contract/identity';
import { INVITE, startHarness, type Harness } from '../integration/harness';
import { idem, injectClient, type ApiClient } from '../integration/support/client';
import { register, taiwanId } from '../integration/support/members';
import { idPaths, sampleBody, sampleValue, withValue, type SchemaPath } from './support/schema-walk';

let h: Harness;
let c: ApiClient;
let dataDir: string;
let op: string;
let member: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tw-ids-'));
  h = await startHarness({ dataDir });
  c = injectClient(h.app);
  op = await h.operatorToken();
  member = await register(c, '0921000401', INVITE);
}, 120_000);

afterAll(async () => {
  await h?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const tokenFor = (name: EndpointName) =>
  api[name].access === 'operator'
    ? op
    : api[name].access === 'member' || api[name].access === 'any'
      ? member
      : undefined;

/** Bodies the generic sample builder cannot find (object-level rules); the test says which. */
const UPLOAD = 'a'.repeat(32);
const ORDER = { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 5 };
const OVERRIDES: Partial<Record<EndpointName, Record<string, unknown>>> = {
  'support/send': { text: 'hello' },
  'user/submitKyc': { name: '陳大文', idNumber: taiwanId(401), frontUploadId: UPLOAD, backUploadId: UPLOAD },
  'trade/placeOrder': ORDER,
  'dayTrade/placeOrder': ORDER,
};

/** Every (endpoint, id field) pair of the contract with a body its schema accepts. */
function idCases(): Array<{
  name: EndpointName;
  at: SchemaPath;
  leaf: unknown;
  body: Record<string, unknown>;
}> {
  const out = [];
  for (const name of Object.keys(api) as EndpointName[]) {
    for (const { at, leaf } of idPaths(api[name].req)) {
      const base = OVERRIDES[name] ?? sampleBody(api[name].req);
      out.push({ name, at, leaf, body: withValue(base, at, validIdFor(leaf)) });
    }
  }
  return out;
}

/** A value the id's own schema accepts. */
const validIdFor = (leaf: unknown): unknown =>
  leaf === idSchema || leaf === bigIdSchema ? 1 : leaf === noticeIdSchema ? 'a1' : sampleValue(leaf);

/** A closed list of ids (e.g. the coupon offers of contract/rewards.ts). */
const isEnum = (leaf: unknown) => (leaf as { _zod: { def: { type: string } } })._zod.def.type === 'enum';

/** JSON texts of the hostile ids (2^63 and 1e309 as written, not as JS rounds them). */
const BAD_IDS = ['2147483648', '9223372036854775808', '-1', '0', '1.5', '"abc"', '1e309', 'null'];
/** Hostile notice ids: past int4 on the announcement side, past 2^53 on the account side. */
const BAD_NOTICE_IDS = ['"a2147483648"', '"a9999999999"', '"m9223372036854775808"', '"a0"', '"x1"'];

/** The body as JSON text with the value at `at` replaced by the raw JSON `raw`. */
function rawBody(body: Record<string, unknown>, at: SchemaPath, raw: string): string {
  const marker = '__ID_UNDER_TEST__';
  return JSON.stringify(withValue(body, at, marker)).replace(`"${marker}"`, raw);
}

/** Error keys worded in both languages (`errors` of locales/{,more/,admin/}{tw,en}.json). */
const KEYS = ['tw', 'en'].map((lang) => {
  const keys = new Set<string>();
  for (const dir of ['', 'more', 'admin']) {
    const file = JSON.parse(readFileSync(path.join('locales', dir, `${lang}.json`), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    for (const k of Object.keys(file.errors ?? {})) keys.add(k);
  }
  return keys;
});
const translated = (key: string) => KEYS.every((keys) => keys.has(key));

describe('ids at the edge', () => {
  const cases = idCases();

  it('finds the id fields of the contract, each one of the shared id schemas', () => {
    // The endpoints of the report are among them.
    const names = new Set(cases.map((x) => x.name));
    for (const n of [
      'lending/lend',
      'lending/recall',
      'admin/issueResetCode',
      'admin/saveNotice',
      'admin/publishNotice',
      'admin/supportReply',
      'support/history',
    ] as EndpointName[])
      expect(names.has(n) || !(n in api), n).toBe(true);
    expect(cases.length).toBeGreaterThan(60);
    for (const { name, at, leaf } of cases)
      expect([
        name,
        at.join('.'),
        [idSchema, bigIdSchema, noticeIdSchema, uploadIdSchema].includes(leaf as never) || isEnum(leaf),
      ]).toEqual([name, at.join('.'), true]);
  });

  it('has a body each endpoint accepts with a valid id', () => {
    const refused = cases
      .map(({ name, at, body }) => ({
        where: `${name} ${at.join('.')}`,
        parsed: api[name].req.safeParse(body),
      }))
      .filter((x) => !x.parsed.success)
      .map((x) => `${x.where}: ${JSON.stringify(x.parsed.error?.issues)}`);
    expect(refused).toEqual([]);
  });

  it('answers every hostile id below 500 with a translated 4xx envelope, on every endpoint', async () => {
    let sent = 0;
    const wrong: string[] = [];
    for (const { name, at, leaf, body } of cases) {
      const bad =
        leaf === noticeIdSchema
          ? [...BAD_IDS, ...BAD_NOTICE_IDS]
          : leaf === bigIdSchema
            ? [...BAD_IDS.slice(1), '9007199254740992']
            : BAD_IDS;
      for (const raw of bad) {
        // A nullable id (e.g. "no cover") takes null.
        if (raw === 'null' && api[name].req.safeParse(withValue(body, at, null)).success) continue;
        const r = await c.call(
          name,
          rawBody(body, at, raw),
          tokenFor(name),
          api[name].idempotent ? idem() : {},
        );
        if (!(r.http >= 400 && r.http < 500 && r.body.status === 0 && translated(r.body.msg)))
          wrong.push(`${name} ${at.join('.')}=${raw}: ${r.http} ${r.body.msg}`);
        sent++;
      }
    }
    expect(wrong).toEqual([]);
    expect(sent).toBeGreaterThan(500);
  });

  it('answers the largest id each schema takes below 500 (the database holds it)', async () => {
    const wrong: string[] = [];
    for (const { name, at, leaf, body } of cases) {
      const max =
        leaf === idSchema
          ? String(INT4_MAX)
          : leaf === bigIdSchema
            ? String(Number.MAX_SAFE_INTEGER)
            : leaf === noticeIdSchema
              ? `"a${INT4_MAX}"`
              : null;
      if (max === null) continue;
      const r = await c.call(
        name,
        rawBody(body, at, max),
        tokenFor(name),
        api[name].idempotent ? idem() : {},
      );
      if (!(r.http < 500 && (r.body.status === 1 || translated(r.body.msg))))
        wrong.push(`${name} ${at.join('.')}=${max}: ${r.http} ${r.body.msg}`);
    }
    expect(wrong).toEqual([]);
  });
});
