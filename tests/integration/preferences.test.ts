/**
 * The member's confirmation threshold (contract/account.ts preferencesSchema, user/preferences and
 * user/savePreferences), through the HTTP API on both databases:
 * - a member who never saved one reads the default, NT$100,000 (10,000,000 minor), and it writes
 *   no row;
 * - a save replaces it and is read back; 0 ("always confirm") and the maximum are accepted;
 * - saving the same value again answers the same and writes nothing, not even `updated_at`;
 * - bad input (negative, fractional, above the maximum, a string, missing, an unknown field such
 *   as another member's id) is 400 parameterError and nothing is written;
 * - one member's save never changes another's, and each reads only their own; an anonymous caller
 *   is refused and an operator's session is refused (operators never act as members).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_ABOVE_DEFAULT_MINOR, CONFIRM_ABOVE_MAX_MINOR } from '../../contract/account';
import { memberPreferences } from '../../server/db/schema';
import { startHarness, type Harness } from './harness';
import { ALL_TABLES, fingerprint } from './support/fingerprint';

let h: Harness;
let op: string;
let a: string;
let b: string;

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
  a = await h.register('0911002391');
  b = await h.register('0911002392');
});
afterAll(() => h?.close());

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token?: string) {
  const r = await h.call(name, body, token);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

const rowsOf = async (token: string) => {
  const info = await ok('user/info', {}, token);
  const id = await h.userId(info.account);
  return h.database.db.select().from(memberPreferences).where(eq(memberPreferences.userId, id));
};

describe('confirmation threshold', () => {
  it('starts at NT$100,000 without writing a row', async () => {
    expect(await ok('user/preferences', {}, a)).toEqual({ confirmAboveMinor: CONFIRM_ABOVE_DEFAULT_MINOR });
    expect(CONFIRM_ABOVE_DEFAULT_MINOR).toBe(10_000_000);
    expect(await rowsOf(a)).toEqual([]);
  });

  it('saves, reads back, accepts 0 and the maximum; the same value again writes nothing', async () => {
    expect(await ok('user/savePreferences', { confirmAboveMinor: 50_000_000 }, a)).toEqual({
      confirmAboveMinor: 50_000_000,
    });
    expect(await ok('user/preferences', {}, a)).toEqual({ confirmAboveMinor: 50_000_000 });
    const [first] = await rowsOf(a);
    expect(first!.confirmAboveMinor).toBe(50_000_000);

    const before = await fingerprint(h.database.db, ALL_TABLES);
    for (let i = 0; i < 3; i++)
      expect(await ok('user/savePreferences', { confirmAboveMinor: 50_000_000 }, a)).toEqual({
        confirmAboveMinor: 50_000_000,
      });
    expect(await fingerprint(h.database.db, ALL_TABLES)).toEqual(before);
    expect((await rowsOf(a))[0]!.updatedAt).toEqual(first!.updatedAt);

    for (const v of [0, CONFIRM_ABOVE_MAX_MINOR, 10_000_000]) {
      expect(await ok('user/savePreferences', { confirmAboveMinor: v }, a)).toEqual({ confirmAboveMinor: v });
      expect(await ok('user/preferences', {}, a)).toEqual({ confirmAboveMinor: v });
    }
    expect(await rowsOf(a)).toHaveLength(1);
  });

  it('refuses bad input with 400 parameterError and writes nothing', async () => {
    await ok('user/savePreferences', { confirmAboveMinor: 2_000_000 }, a);
    const idOfA = await h.userId('0911002391');
    const before = await fingerprint(h.database.db, ALL_TABLES);
    const bad: unknown[] = [
      { confirmAboveMinor: -1 },
      { confirmAboveMinor: 1.5 },
      { confirmAboveMinor: CONFIRM_ABOVE_MAX_MINOR + 1 },
      { confirmAboveMinor: 2 ** 53 },
      { confirmAboveMinor: '100000' },
      { confirmAboveMinor: null },
      {},
      { confirmAboveMinor: 100, userId: idOfA },
      { confirmAboveMinor: 100, account: '0911002392' },
    ];
    for (const body of bad) {
      const r = await h.call('user/savePreferences', body, a);
      expect([JSON.stringify(body), r.http, r.body]).toEqual([
        JSON.stringify(body),
        400,
        { status: 0, msg: 'parameterError', data: null },
      ]);
    }
    const extra = await h.call('user/preferences', { userId: idOfA }, b);
    expect([extra.http, extra.body.msg]).toEqual([400, 'parameterError']);
    expect(await fingerprint(h.database.db, ALL_TABLES)).toEqual(before);
    expect(await ok('user/preferences', {}, a)).toEqual({ confirmAboveMinor: 2_000_000 });
  });

  it("keeps each member's threshold their own", async () => {
    await ok('user/savePreferences', { confirmAboveMinor: 7_000_000 }, a);
    expect(await ok('user/preferences', {}, b)).toEqual({ confirmAboveMinor: CONFIRM_ABOVE_DEFAULT_MINOR });
    await ok('user/savePreferences', { confirmAboveMinor: 0 }, b);
    expect(await ok('user/preferences', {}, a)).toEqual({ confirmAboveMinor: 7_000_000 });
    expect(await ok('user/preferences', {}, b)).toEqual({ confirmAboveMinor: 0 });
    expect((await rowsOf(a))[0]!.confirmAboveMinor).toBe(7_000_000);
    expect((await rowsOf(b))[0]!.confirmAboveMinor).toBe(0);
  });

  it('refuses an anonymous caller and an operator session', async () => {
    const before = await fingerprint(h.database.db, ALL_TABLES);
    for (const name of ['user/preferences', 'user/savePreferences'] as const) {
      const body = name === 'user/savePreferences' ? { confirmAboveMinor: 1 } : {};
      const anon = await h.call(name, body);
      expect([name, anon.http, anon.body.msg]).toEqual([name, 401, 'notLoggedIn']);
      const byOp = await h.call(name, body, op);
      expect([name, byOp.http, byOp.body.msg]).toEqual([name, 403, 'forbidden']);
    }
    expect(await fingerprint(h.database.db, ALL_TABLES)).toEqual(before);
  });
});
