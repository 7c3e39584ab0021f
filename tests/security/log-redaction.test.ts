/**
 * The server log never holds a secret (server/http/edges.ts `loggerOptions`, `serializeError`),
 * captured from the log stream of a whole server (PGlite or PostgreSQL):
 * - a failed statement's parameters (a reset code's argon2 hash, a member's account) and the
 *   database's detail line are not in the logged error, its message or its stack;
 * - refused requests log their body with passwords, a reset code and a device token redacted.
 */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { hashPassword } from '../../server/modules/auth/passwords';
import { startHarness, type Harness } from '../integration/harness';

const ACCOUNT = '0913100001';
const PASSWORD = 'password123';

describe('the server log', () => {
  let h: Harness;
  const lines: string[] = [];
  const text = () => lines.join('');
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    h = await startHarness({ logLevel: 'info' }, { logStream: stream });
    await h.register(ACCOUNT);
  });
  afterAll(() => h.close());

  it("drops a failed statement's parameters and detail, and blanks password hashes", async () => {
    const hash = await hashPassword('123456');
    // A statement failing with a hash among its parameters (as issueResetCode's update did).
    const failed = await h.database.db
      .execute(sql`select ${hash}::text as h, ${'2147483648'}::int as id`)
      .then(() => null)
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(String((failed as Error).message)).toContain(hash); // the raw error does carry it
    h.app.log.error({ err: failed }, 'statement failed');
    // A unique violation: the database's detail names the duplicated value.
    const dup = await h.database.db
      .insert(users)
      .values({ account: ACCOUNT, passwordHash: hash, role: 'member' })
      .then(() => null)
      .catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(Error);
    h.app.log.error({ err: dup }, 'insert failed');

    const logged = lines.filter((l) => l.includes('statement failed') || l.includes('insert failed'));
    expect(logged).toHaveLength(2);
    for (const line of logged) {
      expect(line).not.toContain('$argon2');
      expect(line).not.toContain(hash.split('$').at(-1));
      expect(line).not.toContain(ACCOUNT);
      expect(line).not.toContain('2147483648');
      const err = JSON.parse(line).err;
      expect(err.message).toMatch(/params: \[redacted\]/);
      expect(err.query).toMatch(/\$1/); // the statement itself, placeholders only, stays
    }
  });

  it('keeps an operator reset-code failure free of the code and its hash', async () => {
    const op = await h.operatorToken();
    await h.call('user/resetRequest', { account: ACCOUNT });
    const pending = await h.call('admin/passwordResets', {}, op);
    const id = (pending.body.data as Array<{ id: number }>)[0]!.id;
    const issued = await h.call('admin/issueResetCode', { id }, op);
    const code = issued.body.data.code as string;
    // Out of range for the id column: a database error (500) or a 400, never a logged hash.
    const big = await h.call('admin/issueResetCode', { id: 2 ** 31 }, op);
    expect(big.http).toBeGreaterThanOrEqual(400);
    // A wrong and the right code are both refused/used with the code in the body.
    await h.call('user/resetPassword', {
      account: ACCOUNT,
      code: code === '000000' ? '000001' : '000000',
      password: 'newpass123',
    });
    expect(text()).toContain('request refused');
    expect(text()).not.toContain('$argon2');
    expect(text()).not.toMatch(/"code":"\d{6}"/);
  });

  it('redacts passwords and device tokens of refused requests', async () => {
    const ok = await h.call('user/login', { account: ACCOUNT, password: PASSWORD });
    const device = ok.body.data.device as string;
    await h.call('user/login', { account: ACCOUNT, password: 'secret-guess-1', device });
    const refused = lines.filter((l) => l.includes('request refused') && l.includes('wrongCredentials'));
    expect(refused.length).toBeGreaterThan(0);
    expect(text()).not.toContain('secret-guess-1');
    expect(text()).not.toContain(device);
    expect(JSON.parse(refused.at(-1)!).body).toMatchObject({ password: '[redacted]', device: '[redacted]' });
  });
});
