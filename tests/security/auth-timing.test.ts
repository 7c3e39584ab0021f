/**
 * An unknown account answers a login exactly like a wrong password, in the same time (the server
 * verifies a dummy hash), on the whole server (integration harness, PGlite or PostgreSQL).
 *
 * It asserts wall time (median of paired differences within 5 ms), so `npm test` runs this file
 * on its own after every other one, one project at a time (vitest.config.ts TIMING_FILES): run
 * beside another test file, the other worker's load moved the median by 5.5–6.7 ms while the CPU
 * times stayed within 1.4 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../integration/harness';
import { compare, pair, type Sample } from './timing';

const login = (h: Harness, account: string, password: string) => h.call('user/login', { account, password });

describe('login timing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('answers an unknown account and a wrong password alike, within 5 ms (median over 31 paired tries)', async () => {
    const N = 31;
    const known = Array.from({ length: N + 1 }, (_, i) => `09310000${String(i).padStart(2, '0')}`);
    for (const a of known) await h.register(a);
    const unknown = Array.from({ length: N + 1 }, (_, i) => `09320000${String(i).padStart(2, '0')}`);
    // Warm-up of both paths (the dummy hash is made on first use).
    await login(h, unknown[N]!, 'wrong-password-1');
    await login(h, known[N]!, 'wrong-password-1');
    const tUnknown: Sample[] = [];
    const tWrong: Sample[] = [];
    for (let i = 0; i < N; i++) {
      const [[a, ra], [b, rb]] = await pair(
        () => login(h, unknown[i]!, 'wrong-password-1'),
        () => login(h, known[i]!, 'wrong-password-1'),
        i,
      );
      expect(ra).toEqual({ http: 401, body: { status: 0, msg: 'wrongCredentials', data: null } });
      expect(rb).toEqual(ra);
      tUnknown.push(a);
      tWrong.push(b);
    }
    const diff = compare('login, unknown account vs wrong password', tUnknown, tWrong);
    expect(Math.abs(diff.cpu)).toBeLessThan(5);
    expect(Math.abs(diff.wall)).toBeLessThan(5);
  });
});
