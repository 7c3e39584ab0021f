/**
 * Property (fast-check) of the stored draw, on PGlite and PostgreSQL: for random offerings (units
 * 1–6), random sets of applying members (some without the money, so waived on deduction day) and
 * the offering's random seed, after the steps have run
 * - sha256(revealed seed) is the commitment published before the first application;
 * - the re-run of the published draw (drawWinners over the published qualified numbers) equals
 *   the stored winners, and the members marked won are exactly those;
 * - the number of winners is min(units, qualified), so equal to the units when oversubscribed;
 * - the ledger reconciles.
 */
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawCommitment, drawWinners } from '../../contract/ipo';
import { ipoApplications, ipoDraws } from '../../server/db/schema';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { createOffering } from '../../server/modules/ipo/schedule';
import { apply, runDue, type IpoCalendar } from '../../server/modules/ipo/service';
import { startHarness, type Harness } from './harness';

const MEMBERS = 12;
let h: Harness;
const rich: number[] = [];
const poor: number[] = [];
let day = 1_000;
const cal: IpoCalendar = { today: () => day, label: () => '2025-04-14', now: () => Date.now() };

beforeAll(async () => {
  h = await startHarness();
  for (let i = 0; i < MEMBERS; i++) {
    const account = `09400000${String(i).padStart(2, '0')}`;
    await h.fundedMember(account, i % 4 === 3 ? 100_000 : 200_000_000);
    (i % 4 === 3 ? poor : rich).push(await h.userId(account));
  }
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('stored draw', () => {
  it('re-running the published draw gives the stored winners; winners = min(units, qualified)', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.subarray([...rich, ...poor], { minLength: 1 }),
        async (units, applicants) => {
          day += 20;
          const id = await createOffering(h.database.db, {
            source: `test:prop:${++n}`,
            symbol: '2330',
            name: '台積電',
            marketType: '上市增資',
            priceMinor: 1_000,
            sharesOffered: units * 1000,
            sharesPerApplication: 1000,
            applyStartDay: day,
            realApplyStart: '2026-01-02',
            realDrawDate: '2026-01-08',
          });
          const [before] = await h.database.db.select().from(ipoDraws).where(eq(ipoDraws.offeringId, id));
          for (const u of applicants) await h.database.db.transaction((tx) => apply(tx, u, id, day));
          day += 10;
          await runDue(h.database.db, cal);
          const [d] = await h.database.db.select().from(ipoDraws).where(eq(ipoDraws.offeringId, id));
          expect(d!.commitment).toBe(before!.commitment);
          expect(await drawCommitment(d!.seed!)).toBe(d!.commitment);
          const qualified = d!.qualified!;
          expect(qualified).toHaveLength(applicants.filter((u) => rich.includes(u)).length);
          expect(await drawWinners(d!.seed!, qualified, d!.units)).toEqual(d!.winners);
          expect(d!.winners).toHaveLength(Math.min(units, qualified.length));
          expect(d!.oversubscribed).toBe(qualified.length > units);
          const rows = await h.database.db
            .select()
            .from(ipoApplications)
            .where(eq(ipoApplications.offeringId, id));
          expect(
            rows
              .filter((a) => a.status === 'subscribed')
              .map((a) => a.applicationNo)
              .sort(),
          ).toEqual([...d!.winners!].sort());
          expect(rows.filter((a) => a.status === 'waived')).toHaveLength(
            applicants.filter((u) => poor.includes(u)).length,
          );
        },
      ),
      { numRuns: 12 },
    );
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
