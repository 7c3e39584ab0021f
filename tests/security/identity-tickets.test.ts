/**
 * One person, many lottery tickets (and the lower items that ride with it), reproduced through
 * the HTTP API on PGlite and, with TEST_DATABASE_URL, on PostgreSQL:
 *
 * - `ipo/apply` and `auction/bid` without a verified identity were accepted, so one person with
 *   many accounts held many tickets. Now both need KYC `verified`; one application per verified ID
 *   number and offering (docs/tw-market-rules.md "Public subscription: who and how much": one per
 *   person, through any broker), held by a unique index even against concurrent requests and rows
 *   written by any path; the auction's 10 % cap counts every bid under the person's ID number.
 *   A second account of the same person cannot get verified (kyc_verified_id_uq), so it can
 *   neither apply nor bid.
 * - A verified member's invite code renewed itself when used up: it now stays used up.
 * - `support/send`, `user/feedback`, `search/addHistory` took 300 requests in 7 s: now a quota per
 *   member (server/modules/common/member-quota.ts), `tooFrequent` past it, nothing written.
 * - `mentor/info` showed the mentor's internal user id and phone digits: gone from the public DTO.
 * (KYC's answer about another member's ID number: tests/security/edges.test.ts "duplicate ID
 * numbers"; the follower avoiding the profit share: tests/security/copy-profit-share.test.ts.)
 */
import { count, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auctionBids,
  feedback,
  invitationCodes,
  ipoApplications,
  mentors,
  searchHistory,
  supportMessages,
} from '../../server/db/schema';
import { MEMBER_QUOTAS } from '../../server/modules/common/member-quota';
import { isUniqueViolation } from '../../server/modules/common/db-errors';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { idem, INVITE, startHarness, type Harness } from '../integration/harness';
import { injectClient, uploadOk } from '../integration/support/client';
import { png } from '../integration/support/files';
import { nameFor, pendingKycId } from '../integration/support/members';
import { idNumberFor } from '../support/taiwan-id';

const NT = 100;
let h: Harness;
let op: string;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, key?: string) {
  const r = await h.call(name, body, token, key === undefined ? {} : idem(key));
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const today = () => h.ipo.calendar.today();
const rowsOf = async (table: PgTable, where: SQL | undefined) =>
  Number((await h.database.db.select({ n: count() }).from(table).where(where))[0]!.n);

/** Registers `account` and submits KYC with `idNumber` (left in review). */
async function submitted(account: string, idNumber: string): Promise<string> {
  const token = await h.register(account);
  const c = injectClient(h.app);
  const r = await h.call(
    'user/submitKyc',
    {
      name: nameFor(account),
      idNumber,
      frontUploadId: await uploadOk(c, token, 'kycFront', png(7_000 + Number(account.slice(-3)))),
      backUploadId: await uploadOk(c, token, 'kycBack', png(8_000 + Number(account.slice(-3)))),
    },
    token,
  );
  expect(r.body.status).toBe(1);
  return token;
}

let person: { token: string; userId: number; idNumber: string };
/** The same person's second account: KYC submitted with the same ID number, never approved. */
let second: { token: string; userId: number };
let stranger: string;

beforeAll(async () => {
  h = await startHarness({ inviteMemberMaxUses: 2, inviteMemberDays: 10 });
  op = await h.operatorToken();
  person = {
    token: await h.fundedMember('0971000001', 2_000_000 * NT),
    userId: await h.userId('0971000001'),
    idNumber: idNumberFor('0971000001'),
  };
  second = { token: await submitted('0971000002', person.idNumber), userId: await h.userId('0971000002') };
  const approve = await h.call(
    'admin/approveKyc',
    { id: await pendingKycId(injectClient(h.app), op, '0971000002') },
    op,
  );
  expect([approve.http, approve.body.msg]).toEqual([409, 'alreadyVerified']);
  stranger = await h.register('0971000003');
}, 120_000);
afterAll(async () => h?.close());

describe('public subscription: one application per person', () => {
  let offeringId: number;
  beforeAll(async () => {
    const s = await ok(
      'admin/saveOffering',
      {
        kind: 'subscription',
        symbol: '2330',
        name: '台積電',
        priceMinor: 500 * NT,
        sharesOffered: 5_000,
        sharesPerApplication: 1_000,
        startDay: today(),
        listingDay: today() + 10,
      },
      op,
    );
    offeringId = s.id;
  });

  it('refuses members without a verified identity, writing nothing', async () => {
    for (const token of [stranger, second.token]) {
      const r = await h.call('ipo/apply', { offeringId }, token, idem());
      expect([r.http, r.body.msg]).toEqual([422, 'realNameNotCompleted']);
    }
    expect(await rowsOf(ipoApplications, eq(ipoApplications.offeringId, offeringId))).toBe(0);
  });

  it('takes one of ten concurrent applications of the verified person, holding the money once', async () => {
    const before = await memberBalances(h.database.db, person.userId);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.call('ipo/apply', { offeringId }, person.token, idem())),
    );
    const accepted = answers.filter((a) => a.body.status === 1);
    expect(accepted).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.body.status !== 1).map((a) => a.body.msg))).toEqual(
      new Set(['ipoAlreadyApplied']),
    );
    const rows = await h.database.db
      .select()
      .from(ipoApplications)
      .where(eq(ipoApplications.offeringId, offeringId));
    expect(rows.map((r) => [r.userId, r.idNumber])).toEqual([[person.userId, person.idNumber]]);
    const payable = accepted[0]!.body.data.payableMinor as number;
    expect(await memberBalances(h.database.db, person.userId)).toMatchObject({
      available: before.available - payable,
      frozen: before.frozen + payable,
    });
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('holds one application per ID number in the database, whatever account writes it', async () => {
    const err = await h.database.db
      .insert(ipoApplications)
      .values({
        applicationNo: 'X-second-account',
        offeringId,
        userId: second.userId,
        idNumber: person.idNumber,
        status: 'unpaid',
        shares: 1_000,
        priceMinor: 500 * NT,
        payableMinor: 500 * NT * 1_000 + 7_000,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(err, 'ipo_applications_one_per_id_uq')).toBe(true);
  });
});

describe('auction: the 10 % cap per person', () => {
  const auction = async () =>
    (
      await ok(
        'admin/saveOffering',
        {
          kind: 'auction',
          symbol: '2317',
          name: '鴻海',
          priceMinor: 100 * NT,
          lots: 20, // cap 10 % = 2 lots
          depositBps: 2_000,
          startDay: today(),
          listingDay: today() + 5,
        },
        op,
      )
    ).id as number;

  it('refuses bids without a verified identity', async () => {
    const id = await auction();
    for (const token of [stranger, second.token]) {
      const r = await h.call('auction/bid', { offeringId: id, priceMinor: 100 * NT, lots: 1 }, token, idem());
      expect([r.http, r.body.msg]).toEqual([422, 'realNameNotCompleted']);
    }
    expect(await rowsOf(auctionBids, eq(auctionBids.offeringId, id))).toBe(0);
  });

  it('takes two of ten concurrent 1-lot bids against a 2-lot cap', async () => {
    const id = await auction();
    const before = await memberBalances(h.database.db, person.userId);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.call('auction/bid', { offeringId: id, priceMinor: 100 * NT, lots: 1 }, person.token, idem()),
      ),
    );
    expect(answers.filter((a) => a.body.status === 1)).toHaveLength(2);
    expect(new Set(answers.filter((a) => a.body.status !== 1).map((a) => a.body.msg))).toEqual(
      new Set(['auctionBidOverCap']),
    );
    const deposit = (100 * NT * 1_000 * 2_000) / 10_000;
    expect(await memberBalances(h.database.db, person.userId)).toMatchObject({
      available: before.available - 2 * deposit,
      frozen: before.frozen + 2 * deposit,
    });
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('counts the bids of every account under the person’s ID number', async () => {
    const id = await auction();
    // A bid on the person's ID number from another account (as a row written before this rule,
    // or by any other path): it counts against the person's cap.
    await h.database.db.insert(auctionBids).values({
      bidNo: 'A-other-account',
      offeringId: id,
      userId: second.userId,
      idNumber: person.idNumber,
      priceMinor: 100 * NT,
      lots: 1,
      depositMinor: 0,
    });
    const two = await h.call(
      'auction/bid',
      { offeringId: id, priceMinor: 100 * NT, lots: 2 },
      person.token,
      idem(),
    );
    expect([two.http, two.body.msg]).toEqual([422, 'auctionBidOverCap']);
    const one = await h.call(
      'auction/bid',
      { offeringId: id, priceMinor: 100 * NT, lots: 1 },
      person.token,
      idem(),
    );
    expect(one.body.status).toBe(1);
    expect(one.body.data.lots).toBe(1);
    await h.database.db.delete(auctionBids).where(eq(auctionBids.bidNo, 'A-other-account'));
  });
});

describe('invite codes', () => {
  it('a used-up code of a verified member stays used up', async () => {
    const mine = await ok('user/invite', {}, person.token);
    expect(mine).toMatchObject({ eligible: true, maxUses: 2, uses: 0 });
    const reg = (account: string) =>
      h.call('user/register', {
        account,
        password: 'password123',
        confirmPassword: 'password123',
        inviteCode: mine.code,
        agree: true,
      });
    expect((await reg('0971000011')).body.status).toBe(1);
    expect((await reg('0971000012')).body.status).toBe(1);
    expect((await reg('0971000013')).body.status).not.toBe(1);
    for (let visit = 0; visit < 3; visit++) {
      const again = await ok('user/invite', {}, person.token);
      expect(again).toMatchObject({ code: mine.code, uses: 2, maxUses: 2 });
    }
    expect(await rowsOf(invitationCodes, eq(invitationCodes.createdBy, person.userId))).toBe(1);
    expect((await reg('0971000014')).body.status).not.toBe(1);
    // The first-run code is not the member's: unaffected.
    expect(INVITE).not.toBe(mine.code);
  });
});

describe('per-member quotas', () => {
  /** Sends `n` requests one after another; returns how many were taken and the refusals' answers. */
  async function burst(n: number, send: (i: number) => ReturnType<Harness['call']>) {
    let taken = 0;
    const refusals = new Set<string>();
    for (let i = 0; i < n; i++) {
      const r = await send(i);
      if (r.body.status === 1) taken++;
      else refusals.add(`${r.http} ${r.body.msg}`);
    }
    return { taken, refusals: [...refusals] };
  }

  it('support/send: 300 messages at once → the quota, then tooFrequent, nothing more stored', async () => {
    const token = await h.register('0971000021');
    const userId = await h.userId('0971000021');
    const started = Date.now();
    const r = await burst(300, (i) => h.call('support/send', { text: `spam ${i}` }, token));
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(r).toEqual({ taken: MEMBER_QUOTAS.supportSend.points, refusals: ['429 tooFrequent'] });
    expect(await rowsOf(supportMessages, eq(supportMessages.authorId, userId))).toBe(
      MEMBER_QUOTAS.supportSend.points,
    );
    // Another member is not affected.
    const other = await h.register('0971000022');
    expect((await h.call('support/send', { text: 'hello' }, other)).body.status).toBe(1);
  });

  it('user/feedback and search/addHistory: the quota, then tooFrequent', async () => {
    const token = await h.register('0971000023');
    const userId = await h.userId('0971000023');
    const fb = await burst(50, () => h.call('user/feedback', { rating: 1, comment: 'spam' }, token));
    expect(fb).toEqual({ taken: MEMBER_QUOTAS.feedback.points, refusals: ['429 tooFrequent'] });
    expect(await rowsOf(feedback, eq(feedback.userId, userId))).toBe(MEMBER_QUOTAS.feedback.points);
    const symbols = ['2330', '2317', '0050'];
    const sh = await burst(300, (i) => h.call('search/addHistory', { symbol: symbols[i % 3]! }, token));
    expect(sh).toEqual({ taken: MEMBER_QUOTAS.searchHistory.points, refusals: ['429 tooFrequent'] });
    expect(await rowsOf(searchHistory, eq(searchHistory.userId, userId))).toBeLessThanOrEqual(3);
  });
});

describe('mentor/info', () => {
  it('shows neither the internal user id nor any digits of the mentor’s phone number', async () => {
    const account = '0971234567';
    await h.register(account);
    const userId = await h.userId(account);
    const [m] = await h.database.db
      .insert(mentors)
      .values({ userId, status: 'approved', minFollowMinor: 10_000 * NT, profitShareBps: 5_000 })
      .returning();
    for (const name of ['mentor/info', 'mentor/list'] as const) {
      const data = await ok(
        name,
        name === 'mentor/info' ? { mentorId: m!.id } : { page: 1, pageSize: 50 },
        stranger,
      );
      const dto = name === 'mentor/info' ? data : data.items.find((x: { id: number }) => x.id === m!.id);
      expect(dto).toBeDefined();
      expect(dto).not.toHaveProperty('userId');
      expect(dto).not.toHaveProperty('account');
      expect(dto.nickname).toBe(`M${String(m!.id).padStart(4, '0')}`);
      expect(JSON.stringify(dto)).not.toContain(account);
    }
    // The operator still sees who it is.
    const admin = await ok('admin/mentors', { status: 'all', page: 1, pageSize: 50 }, op);
    expect(admin.items.find((x: { id: number }) => x.id === m!.id)).toMatchObject({ userId, account });
  });
});
