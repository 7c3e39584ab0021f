/**
 * The public-subscription draw (contract/ipo.ts drawWinners), as a pure function:
 * - a known vector: HMAC-SHA256 tickets computed independently with node:crypto order the numbers;
 * - properties (fast-check): winners are min(units, applications) distinct published numbers, the
 *   result does not depend on the order of the published list, the same seed gives the same
 *   winners, and scripts/verify-draw.ts accepts the draw and refuses a changed winner or seed;
 * - the fees: NT$100 × 1,000 + 20 + 50 = NT$100,070.
 */
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawCommitment, drawTicket, drawWinners, ipoPayableMinor, ipoUnits } from '../../contract/ipo';
import { verifyDraw } from '../../scripts/verify-draw';

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
const numbersArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 999_999 }), { maxLength: 60 })
  .map((ns) => ns.map((n) => `0001-${String(n).padStart(6, '0')}`));

describe('drawWinners', () => {
  it('orders by HMAC-SHA256(seed, number) ascending (checked with node:crypto)', async () => {
    const seed = '00'.repeat(31) + '01';
    const nos = ['0001-000001', '0001-000002', '0001-000003', '0001-000004', '0001-000005'];
    const ticket = (no: string) => createHmac('sha256', Buffer.from(seed, 'hex')).update(no).digest('hex');
    expect(await drawTicket(seed, nos[0]!)).toBe(ticket(nos[0]!));
    const expected = [...nos].sort((a, b) => (ticket(a) < ticket(b) ? -1 : 1)).slice(0, 2);
    expect(await drawWinners(seed, nos, 2)).toEqual(expected);
    expect(await drawCommitment(seed)).toBe(
      createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex'),
    );
  });

  it('winners: min(units, applications) distinct published numbers, independent of list order; re-run equal', async () => {
    await fc.assert(
      fc.asyncProperty(
        seedArb,
        numbersArb,
        fc.integer({ min: 0, max: 80 }),
        fc.integer(),
        async (seed, nos, units, shuffleSeed) => {
          const winners = await drawWinners(seed, nos, units);
          expect(winners).toHaveLength(Math.min(units, nos.length));
          expect(new Set(winners).size).toBe(winners.length);
          for (const w of winners) expect(nos).toContain(w);
          const shuffled = [...nos].sort(
            (a, b) => ((a.charCodeAt(6) * 31 + shuffleSeed) % 7) - ((b.charCodeAt(6) * 31 + shuffleSeed) % 7),
          );
          expect(await drawWinners(seed, shuffled, units)).toEqual(winners);
          const published = { commitment: await drawCommitment(seed), seed, qualified: nos, units, winners };
          expect((await verifyDraw(published)).ok).toBe(true);
          if (winners.length > 0 && winners.length < nos.length) {
            const loser = nos.find((n) => !winners.includes(n))!;
            expect((await verifyDraw({ ...published, winners: [loser, ...winners.slice(1)] })).ok).toBe(
              false,
            );
          }
          const other = (seed[0] === '0' ? '1' : '0') + seed.slice(1);
          expect((await verifyDraw({ ...published, seed: other })).commitmentMatches).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses duplicates and a negative unit count', async () => {
    await expect(drawWinners('ab', ['x', 'x'], 1)).rejects.toThrow(RangeError);
    await expect(drawWinners('ab', ['x'], -1)).rejects.toThrow(RangeError);
  });
});

describe('fees', () => {
  it('NT$100 × 1,000 + NT$20 + NT$50 = NT$100,070; units are whole applications', () => {
    expect(ipoPayableMinor(10_000, 1000)).toBe(10_007_000);
    expect(ipoUnits(2_068_000, 1000)).toBe(2068);
    expect(ipoUnits(2_500, 1000)).toBe(2);
  });
});
