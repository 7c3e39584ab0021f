/**
 * Nobody moves or sees what is not theirs (issue 4 acceptance "An authorization test calls every
 * member endpoint with another member's ids and every operator endpoint as a member: all
 * refused"; product-spec §5 "the card must belong to the user", §6 account flags):
 * - member B calling every member endpoint that takes an id with member A's ids (cards, orders,
 *   uploads, receipts) is refused and nothing changes; A's uploads are served to A and to an
 *   operator only;
 * - every operator endpoint of the registry, called as a member (with or without an `is-admin`
 *   header), is refused with 403 forbidden and nothing changes; every member endpoint and the
 *   upload route, called with an operator's session, likewise (operators never act as members);
 * - the account flags an operator sets are enforced: disabled and login-banned members lose their
 *   session and cannot log in, withdrawal-banned ones cannot withdraw, trading-banned ones cannot
 *   place orders, frozen ones can neither deposit, withdraw, exchange nor trade; clearing the flag
 *   restores each right.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { api, type EndpointName } from '../../contract/api';
import { ERROR_KEYS } from '../../contract/errors';
import { INVITE, OPERATOR, startHarness, type Harness } from './harness';
import { idem, injectClient, newKey, uploadOk, type Answer, type ApiClient } from './support/client';
import { png } from './support/files';
import { ALL_TABLES, fingerprint } from './support/fingerprint';
import { reencodeImage } from '../../server/modules/identity/uploads';
import { createOffering } from '../../server/modules/ipo/schedule';
import { mentors } from '../../server/db/schema';
import {
  FUNDS_PASSWORD,
  LOGIN_PASSWORD,
  createChannel,
  nameFor,
  ok,
  openDepositHours,
  pendingKycId,
  readyMember,
  register,
  submitKyc,
  taiwanId,
  type ReadyMember,
} from './support/members';

let h: Harness;
let c: ApiClient;
let dataDir: string;
let op: string;
let channelId: number;
/** The owner of the ids B tries to use. */
let A: ReadyMember;
/** Verified, a card and a funds password of their own. */
let B: ReadyMember;
/** B's unverified twin (KYC submission needs an unverified member). */
let Bu: string;
let aPendingOrder: number;
let aHolding: number;
/** A's lending order (100 shares of a fully paid 2317 long). */
let aLending: number;
let aFront: string;
let aBack: string;
let aReceipt: string;
let aDepositId: number;
let aDepositKey: string;
let aDepositBody: object;
let aDepositAnswer: Answer;
let aWithdrawalId: number;
let kycUnderReview: number;
let ipoOffering: number;
let aApplication: number;
/** A's credit loan, approved (lending). */
let aLoan: number;
/** A's follow of a mentor (a third member, approved by the operator). */
let aFollowId: number;
/** A fee coupon granted to A. */
let aCoupon: number;
/** A's account notice (its deposit approval), A's support image and A's support message. */
let aNoticeId: string;
let aSupportUpload: string;
let aSupportMessageId: number;

// Refused requests may leave their refusal under their idempotency key (a retry gets the same
// answer), and a right funds password may reset the wrong-try counter: both are left out.
const FINGERPRINTED = ALL_TABLES.filter((t) => t !== 'idempotency_keys');
const PROJECTIONS = { user_security: ['user_id', 'funds_password_hash'] };
const state = () => fingerprint(h.database.db, FINGERPRINTED, PROJECTIONS);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tw-authz-'));
  h = await startHarness({ dataDir });
  c = injectClient(h.app);
  op = await h.operatorToken();
  await openDepositHours(c, op);
  channelId = await createChannel(c, op);
  A = await readyMember(c, op, INVITE, '0911111111', { idSeed: 11, channelId, depositMinor: 100_000_000 });
  B = await readyMember(c, op, INVITE, '0922222222', { idSeed: 12, channelId, depositMinor: 50_000_000 });
  Bu = await register(c, '0933333333', INVITE);
  const reviewer = await register(c, '0944444444', INVITE);
  await submitKyc(c, reviewer, nameFor('0944444444'), taiwanId(14));
  kycUnderReview = await pendingKycId(c, op, '0944444444');

  const q = h.feed.quote('2330')!;
  aPendingOrder = ok(
    await c.call(
      'trade/placeOrder',
      {
        symbol: '2330',
        side: 'long',
        orderType: 'limit',
        priceMinor: q.limitDownMinor,
        lots: 1,
        leverage: 10,
      },
      A.token,
      idem(),
    ),
    'limit order',
  ).id;
  aHolding = ok(
    await c.call(
      'trade/placeOrder',
      { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      A.token,
      idem(),
    ),
    'market order',
  ).id;
  ok(await c.call('admin/saveLendingQuota', { symbol: '2317', quotaShares: 1000 }, op), 'lending quota');
  const paidLong = ok(
    await c.call(
      'trade/placeOrder',
      { symbol: '2317', side: 'long', orderType: 'market', lots: 1, leverage: 1 },
      A.token,
      idem(),
    ),
    'paid long',
  ).id;
  aLending = ok(
    await c.call('lending/lend', { orderId: paidLong, shares: 100, rateBps: 500, days: 5 }, A.token, idem()),
    'lend',
  ).id;
  aFront = await uploadOk(c, A.token, 'kycFront', png(101));
  aBack = await uploadOk(c, A.token, 'kycBack', png(102));
  aReceipt = await uploadOk(c, A.token, 'receipt', png(103));
  aDepositKey = newKey();
  aDepositBody = {
    channelId,
    amountMinor: 300_000,
    receiptUploadId: await uploadOk(c, A.token, 'receipt', png(104)),
  };
  aDepositAnswer = await c.call('user/recharge', aDepositBody, A.token, idem(aDepositKey));
  aDepositId = ok(aDepositAnswer, 'deposit').id;
  aWithdrawalId = ok(
    await c.call(
      'user/withdraw',
      { amountMinor: 200_000, fundsPassword: FUNDS_PASSWORD, cardId: A.cardId },
      A.token,
      idem(),
    ),
    'withdraw',
  ).id;
  ipoOffering = await createOffering(h.database.db, {
    source: 'test:authz',
    symbol: '2330',
    name: '台積電',
    marketType: '上市增資',
    priceMinor: 10_000,
    sharesOffered: 1000,
    sharesPerApplication: 1000,
    applyStartDay: h.ipo.calendar.today(),
    realApplyStart: '2026-01-02',
    realDrawDate: '2026-01-08',
  });
  aApplication = ok(await c.call('ipo/apply', { offeringId: ipoOffering }, A.token, idem()), 'ipo apply').id;
  aLoan = ok(await c.call('credit/apply', { amountMinor: 100_000 }, A.token, idem()), 'credit apply').id;
  ok(await c.call('admin/approveCreditLoan', { id: aLoan }, op), 'credit approve');
  // A mentor (B, approved directly: the criteria are copy-trading.test.ts's) whom A follows.
  const [mentor] = await h.database.db
    .insert(mentors)
    .values({ userId: B.userId, status: 'approved', minFollowMinor: 100_000, profitShareBps: 1_000 })
    .returning();
  aFollowId = ok(
    await c.call('follow/start', { mentorId: mentor!.id, amountMinor: 100_000, days: 30 }, A.token, idem()),
    'follow',
  ).id;
  aCoupon = ok(
    await c.call(
      'admin/grantCoupon',
      { account: A.account, kind: 'amount', offMinor: 2_000, validDays: 7 },
      op,
    ),
    'coupon',
  ).id;
  const notices = ok(await c.call('notice/list', { tab: 'account' }, A.token), 'notices');
  aNoticeId = notices.items[0].id;
  aSupportUpload = await uploadOk(c, A.token, 'support', png(77));
  aSupportMessageId = ok(
    await c.call('support/send', { text: 'A: private question', uploadId: aSupportUpload }, A.token),
    'support',
  ).message.id;
}, 300_000);
afterAll(async () => {
  await h?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function refused(a: Answer, https: number[], msgs?: string[]): string | null {
  const good =
    https.includes(a.http) &&
    a.body?.status === 0 &&
    a.body?.data === null &&
    (ERROR_KEYS as readonly string[]).includes(a.body?.msg) &&
    (msgs === undefined || msgs.includes(a.body.msg));
  return good ? null : `got ${a.http} ${JSON.stringify(a.body)}`;
}

/** Request fields that name a record by id. */
const ID_FIELD = /^(id|.+Id)$/;

/**
 * Member endpoints whose id names a record every member shares (a public subscription offering,
 * an auction, a block-trade or placement offering): B may use it, but sees only B's own
 * application or bids on it (tested below, in auction.test.ts — auction/bids lists the caller's
 * bids only — and block-trade.test.ts — primary/applications lists the caller's only).
 */
const SHARED_ID_ENDPOINTS: ReadonlySet<EndpointName> = new Set([
  'ipo/detail',
  'ipo/apply',
  'auction/bid',
  'blockTrade/apply',
  'placement/apply',
  // offerId names an entry of the points shop's catalogue (contract/rewards.ts COUPON_OFFERS).
  'rewards/buyCoupon',
  // `beforeId` is a history cursor: B's history holds B's messages only, whatever the cursor.
  'support/history',
]);

/** Member endpoints whose request names a record by id (new ones must join the table below). */
function memberEndpointsTakingIds(): EndpointName[] {
  return (Object.keys(api) as EndpointName[]).filter((name) => {
    if (api[name].access !== 'member' || SHARED_ID_ENDPOINTS.has(name)) return false;
    const shape = (api[name].req as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
    return Object.keys(shape).some((k) => ID_FIELD.test(k));
  });
}

describe("member B with member A's ids", () => {
  it('is refused at every member endpoint that takes an id, and nothing changes', async () => {
    const b = () => B.token;
    const cases: Array<{
      name: EndpointName;
      label: string;
      body: () => object;
      token: () => string;
      key?: string;
      http: number[];
      msg: string[];
    }> = [
      {
        name: 'user/deleteBankCard',
        label: "A's card",
        body: () => ({ id: A.cardId }),
        token: b,
        http: [403, 404],
        msg: ['cardNotFound', 'notOwnCard'],
      },
      {
        name: 'trade/cancelOrder',
        label: "A's pending order",
        body: () => ({ orderId: aPendingOrder }),
        token: b,
        http: [404],
        msg: ['orderNotFound'],
      },
      {
        name: 'trade/closePosition',
        label: "A's holding",
        body: () => ({ orderId: aHolding }),
        token: b,
        http: [404],
        msg: ['orderNotFound'],
      },
      {
        name: 'trade/orderDetail',
        label: "A's holding",
        body: () => ({ orderId: aHolding }),
        token: b,
        http: [404],
        msg: ['orderNotFound'],
      },
      {
        name: 'trade/orderDetail',
        label: "A's pending order",
        body: () => ({ orderId: aPendingOrder }),
        token: b,
        http: [404],
        msg: ['orderNotFound'],
      },
      {
        name: 'user/withdraw',
        label: "to A's card",
        body: () => ({ amountMinor: 200_000, fundsPassword: FUNDS_PASSWORD, cardId: A.cardId }),
        token: b,
        http: [403, 404],
        msg: ['cardNotFound', 'notOwnCard'],
      },
      {
        name: 'user/recharge',
        label: "with A's receipt",
        body: () => ({ channelId, amountMinor: 300_000, receiptUploadId: aReceipt }),
        token: b,
        http: [403, 404, 422],
        msg: ['uploadProofFirst', 'notFound'],
      },
      {
        // Idempotency keys belong to their member: B replaying A's key and body must not get
        // A's stored answer (which would leak A's deposit), and must not create anything.
        name: 'user/recharge',
        label: "replaying A's idempotency key and body",
        body: () => aDepositBody,
        key: aDepositKey,
        token: b,
        http: [403, 404, 409, 422],
        msg: ['uploadProofFirst', 'notFound', 'keyMismatch'],
      },
      {
        name: 'user/submitKyc',
        label: "with A's ID photos",
        body: () => ({
          name: nameFor('0933333333'),
          idNumber: taiwanId(13),
          frontUploadId: aFront,
          backUploadId: aBack,
        }),
        token: () => Bu,
        http: [403, 404, 422],
        msg: ['idImagesMissing', 'notFound', 'uploadFailed'],
      },
      {
        name: 'follow/start',
        label: 'a mentor that does not exist',
        body: () => ({ mentorId: 999_999, amountMinor: 1_000_000, days: 30 }),
        token: b,
        http: [409],
        msg: ['mentorNotApproved'],
      },
      {
        name: 'mentor/info',
        label: 'a mentor that does not exist',
        body: () => ({ mentorId: 999_999 }),
        token: b,
        http: [404],
        msg: ['notFound'],
      },
      {
        name: 'mentor/minFollow',
        label: 'a mentor that does not exist',
        body: () => ({ mentorId: 999_999 }),
        token: b,
        http: [404],
        msg: ['notFound'],
      },
      ...(['follow/pause', 'follow/resume', 'follow/stop', 'follow/records'] as const).map((name) => ({
        name,
        label: "A's follow",
        body: () => ({ followId: aFollowId }),
        token: b,
        http: [404],
        msg: ['notFound'],
      })),
      {
        name: 'risk/events',
        label: "A's holding's risk notices",
        body: () => ({ orderId: aHolding }),
        token: b,
        http: [404],
        msg: ['orderNotFound'],
      },
      {
        name: 'credit/repay',
        label: "A's credit loan",
        body: () => ({ loanId: aLoan, amountMinor: 1_000 }),
        token: b,
        http: [404],
        msg: ['notFound'],
      },
      {
        name: 'lending/lend',
        label: "A's holding",
        body: () => ({ orderId: aHolding, shares: 100, rateBps: 500, days: 5 }),
        token: b,
        http: [404],
        msg: ['orderNotFound'],
      },
      {
        name: 'lending/recall',
        label: "A's lending order",
        body: () => ({ id: aLending }),
        token: b,
        http: [404],
        msg: ['notFound'],
      },
      {
        name: 'ipo/pay',
        label: "A's subscription application",
        body: () => ({ applicationId: aApplication }),
        token: b,
        http: [404],
        msg: ['ipoNotFound'],
      },
      {
        name: 'notice/detail',
        label: "A's account notice",
        body: () => ({ id: aNoticeId }),
        token: b,
        http: [404],
        msg: ['notFound'],
      },
      {
        name: 'support/send',
        label: "A's support image",
        body: () => ({ uploadId: aSupportUpload }),
        token: b,
        http: [400],
        msg: ['parameterError'],
      },
    ];
    cases.push({
      name: 'trade/placeOrder',
      label: "an order with A's fee coupon",
      body: () => ({
        symbol: '2317',
        side: 'long',
        orderType: 'market',
        lots: 1,
        leverage: 1,
        couponId: aCoupon,
      }),
      token: b,
      http: [409],
      msg: ['couponUnavailable'],
    });
    // B has no day trading: refused for that first, or for the coupon.
    cases.push({
      name: 'dayTrade/placeOrder',
      label: "a day-trade order with A's fee coupon",
      body: () => ({
        symbol: '2317',
        side: 'long',
        orderType: 'market',
        lots: 1,
        leverage: 1,
        couponId: aCoupon,
      }),
      token: b,
      http: [403, 409, 422],
      msg: ['couponUnavailable', 'dayTradeNotApproved'],
    });
    const takingIds = memberEndpointsTakingIds();
    expect(takingIds.length).toBeGreaterThan(0);
    expect([...new Set(cases.map((x) => x.name))].sort()).toEqual([...takingIds].sort());

    const before = await state();
    const failures: string[] = [];
    for (const x of cases) {
      const headers = api[x.name].idempotent ? idem(x.key ?? newKey()) : {};
      const a = await c.call(x.name, x.body(), x.token(), headers);
      const why = refused(a, x.http, x.msg);
      if (why) failures.push(`${x.name} ${x.label}: ${why}`);
      if (x.key) expect(a.body).not.toEqual(aDepositAnswer.body);
    }
    expect(failures).toEqual([]);
    expect(await state()).toEqual(before);

    // A still owns everything B tried to touch.
    expect(ok(await c.call('trade/orderDetail', { orderId: aPendingOrder }, A.token), 'detail').status).toBe(
      'pending',
    );
    expect(ok(await c.call('trade/orderDetail', { orderId: aHolding }, A.token), 'detail').status).toBe(
      'holding',
    );
    const cards = ok(await c.call('user/bankCards', {}, A.token), 'cards') as Array<{ id: number }>;
    expect(cards.map((x) => x.id)).toContain(A.cardId);
  });

  it("sees a shared subscription offering without A's application, and B's records hold none of A's", async () => {
    const detail = ok(await c.call('ipo/detail', { id: ipoOffering }, B.token), 'detail');
    expect(detail.application).toBeNull();
    expect(detail.offering.myStatus).toBeNull();
    expect(ok(await c.call('ipo/detail', { id: ipoOffering }, A.token), 'detail').application.id).toBe(
      aApplication,
    );
    const records = ok(await c.call('ipo/records', {}, B.token), 'records');
    expect(records.items).toEqual([]);
  });

  it("sees only B's own assets and invitation: none of A's code, invitees or balances", async () => {
    const aInvite = ok(await c.call('user/invite', {}, A.token), 'A invite');
    const friend = '0977000001';
    ok(
      await c.call('user/register', {
        account: friend,
        password: LOGIN_PASSWORD,
        confirmPassword: LOGIN_PASSWORD,
        inviteCode: aInvite.code,
        agree: true,
      }),
      'register with A',
    );
    const bInvite = ok(await c.call('user/invite', {}, B.token), 'B invite');
    expect(bInvite.code).not.toBe(aInvite.code);
    expect(bInvite.invitees).toEqual([]);
    expect(ok(await c.call('user/invite', {}, A.token), 'A invite').invitees).toHaveLength(1);
    const bOverview = ok(await c.call('wallet/overview', {}, B.token), 'B overview');
    const bInfo = ok(await c.call('user/info', {}, B.token), 'B info');
    expect(bOverview.totalTwdMinor).toBe(bInfo.totalAssetsMinor);
    expect(bOverview.currencies.find((x: { currency: string }) => x.currency === 'TWD').availableMinor).toBe(
      bInfo.availableMinor,
    );
  });

  it("B's support history holds none of A's messages, even with A's message as the cursor", async () => {
    for (const body of [{}, { beforeId: aSupportMessageId + 1 }]) {
      const history = ok(await c.call('support/history', body, B.token), 'history');
      expect(history.items.filter((m: { text: string | null }) => m.text === 'A: private question')).toEqual(
        [],
      );
    }
    const mine = ok(await c.call('support/history', {}, A.token), 'history');
    expect(mine.items[0]).toMatchObject({ id: aSupportMessageId, text: 'A: private question' });
  });

  it("cannot read or change A's confirmation threshold: the body names no member, B's save is B's", async () => {
    ok(await c.call('user/savePreferences', { confirmAboveMinor: 123_400 }, A.token), 'A saves');
    const before = await state();
    const failures: string[] = [];
    // Naming A in the body is refused (the request is strict), whatever the field is called.
    for (const body of [
      { confirmAboveMinor: 0, userId: A.userId },
      { confirmAboveMinor: 0, account: A.account },
      { confirmAboveMinor: 0, id: A.userId },
    ]) {
      const why = refused(await c.call('user/savePreferences', body, B.token), [400], ['parameterError']);
      if (why) failures.push(`savePreferences ${JSON.stringify(body)}: ${why}`);
    }
    const read = refused(
      await c.call('user/preferences', { userId: A.userId }, B.token),
      [400],
      ['parameterError'],
    );
    if (read) failures.push(`preferences with A's id: ${read}`);
    expect(failures).toEqual([]);
    expect(await state()).toEqual(before);
    // B reads and saves B's own; A's stays.
    expect(ok(await c.call('user/preferences', {}, B.token), 'B reads').confirmAboveMinor).not.toBe(123_400);
    ok(await c.call('user/savePreferences', { confirmAboveMinor: 0 }, B.token), 'B saves');
    expect(ok(await c.call('user/preferences', {}, A.token), 'A reads')).toEqual({
      confirmAboveMinor: 123_400,
    });
    expect(ok(await c.call('user/preferences', {}, B.token), 'B reads')).toEqual({ confirmAboveMinor: 0 });
  });

  it("serves A's upload to A and to an operator only", async () => {
    const mine = await c.fetchUpload(aFront, A.token);
    expect(mine.http).toBe(200);
    // Served as stored: re-encoded on upload.
    const stored = await reencodeImage(png(101).bytes, 'image/png');
    expect(mine.bytes.equals(stored)).toBe(true);
    expect(String(mine.headers['content-type'])).toMatch(/^image\/png/);

    const byB = await c.fetchUpload(aFront, B.token);
    expect(byB.http).toBe(404);
    expect(JSON.parse(byB.bytes.toString('utf8'))).toEqual({ status: 0, msg: 'notFound', data: null });
    const byB2 = await c.fetchUpload(aFront, B.token);
    expect(byB2.bytes.equals(byB.bytes)).toBe(true);

    const byNoOne = await c.fetchUpload(aFront);
    expect(byNoOne.http).toBe(401);
    expect(JSON.parse(byNoOne.bytes.toString('utf8')).msg).toBe('notLoggedIn');

    const byMemberClaimingAdmin = await c.transport({
      method: 'GET',
      url: `/api/vue/upload/${aFront}`,
      headers: { token: B.token, 'is-admin': 'true' },
    });
    expect(byMemberClaimingAdmin.http).toBe(404);

    const byOperator = await c.fetchUpload(aFront, op);
    expect(byOperator.http).toBe(200);
    expect(byOperator.bytes.equals(stored)).toBe(true);
  });
});

describe('operator endpoints called by a member', () => {
  /** A body the endpoint's schema accepts, naming real records where it takes an id. */
  function validBody(name: EndpointName): object {
    const id = /Kyc/.test(name)
      ? kycUnderReview
      : /Deposit/.test(name)
        ? aDepositId
        : /Withdrawal/.test(name)
          ? aWithdrawalId
          : /User|FundsPassword/.test(name)
            ? A.userId
            : 1;
    const candidates: object[] = [
      {},
      { id },
      { id, reason: 'member says so' },
      { id, frozen: true, withdrawBanned: true, reason: 'member says so' },
      { name: 'title', value: 'Owned' },
      { currency: 'TWD', buyPpm: 1_000_000, sellPpm: 1_000_000 },
      { channelOpen: false, rateCapBps: 1, maxDays: 1 },
      { symbol: '2330', quotaShares: 0 },
      {
        name: 'Member channel',
        accountName: 'Member',
        accountNumber: '99999999',
        bankName: 'Member bank',
        branch: 'Home',
        minMinor: 1,
        maxMinor: 100,
      },
    ];
    return candidates.find((b) => api[name].req.safeParse(b).success) ?? {};
  }

  it('refuses every one with 403 forbidden, with or without an is-admin header, and changes nothing', async () => {
    const names = (Object.keys(api) as EndpointName[]).filter((n) => api[n].access === 'operator');
    expect(names.length).toBeGreaterThan(10);
    const before = await state();
    const failures: string[] = [];
    for (const name of names) {
      const body = validBody(name);
      const variants: Array<Record<string, string>> = [
        {},
        { 'is-admin': 'true' },
        { 'is-admin': '1', isadmin: 'true', role: 'admin' },
      ];
      for (const headers of variants) {
        for (const token of [A.token, B.token]) {
          const a = await c.call(name, body, token, headers);
          const why = refused(a, [403], ['forbidden']);
          if (why) failures.push(`${name} ${JSON.stringify(headers)}: ${why}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await state()).toEqual(before);

    // The records named above were still waiting: the operator can review them now.
    expect(ok(await c.call('admin/approveKyc', { id: kycUnderReview }, op), 'approveKyc').status).toBe(
      'verified',
    );
    expect(ok(await c.call('admin/approveDeposit', { id: aDepositId }, op), 'approveDeposit').status).toBe(
      'approved',
    );
    expect(
      ok(await c.call('admin/rejectWithdrawal', { id: aWithdrawalId, reason: 'test' }, op), 'reject').status,
    ).toBe('rejected');
    const users = ok(await c.call('admin/users', { q: A.account }, op), 'users');
    expect(users.items[0]).toMatchObject({ frozen: false, withdrawBanned: false });
  });
});

describe('member endpoints called by an operator', () => {
  it('refuses every one with 403 forbidden, and the upload route too, and changes nothing', async () => {
    const names = (Object.keys(api) as EndpointName[]).filter((n) => api[n].access === 'member');
    expect(names.length).toBeGreaterThan(20);
    const before = await state();
    const failures: string[] = [];
    for (const name of names) {
      // A body naming the operator's own view of real records: the refusal comes before any of it.
      const body =
        name === 'user/recharge' ? { channelId, amountMinor: 300_000, receiptUploadId: aReceipt } : {};
      const a = await c.call(name, body, op, api[name].idempotent ? idem() : {});
      const why = refused(a, [403], ['forbidden']);
      if (why) failures.push(`${name}: ${why}`);
    }
    const upload = await c.upload(op, { purpose: 'receipt' }, png(300));
    const why = refused(upload, [403], ['forbidden']);
    if (why) failures.push(`upload: ${why}`);
    expect(failures).toEqual([]);
    expect(await state()).toEqual(before);
  });

  it('serves the endpoints every account has: logging out ends the operator session', async () => {
    const names = (Object.keys(api) as EndpointName[]).filter((n) => api[n].access === 'any');
    expect(names.sort()).toEqual(['user/loginPassword', 'user/logout']);
    const token = ok(await c.call('admin/login', OPERATOR), 'admin/login').token as string;
    ok(await c.call('user/logout', {}, token), 'logout');
    expect(refused(await c.call('admin/users', {}, token), [401], ['notLoggedIn'])).toBeNull();
  });
});

describe('account flags set by an operator', () => {
  let F: ReadyMember;
  const setFlags = async (flags: Record<string, boolean>) =>
    ok(
      await c.call('admin/setUserFlags', { id: F.userId, reason: 'authorization test', ...flags }, op),
      'flags',
    );
  const login = () => c.call('user/login', { account: F.account, password: LOGIN_PASSWORD });
  const withdraw = () =>
    c.call(
      'user/withdraw',
      { amountMinor: 100_000, fundsPassword: FUNDS_PASSWORD, cardId: F.cardId },
      F.token,
      idem(),
    );
  const placeOrder = () =>
    c.call(
      'trade/placeOrder',
      { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      F.token,
      idem(),
    );
  const exchange = () =>
    c.call('user/exchange', { from: 'TWD', to: 'USD', amountMinor: 100_000 }, F.token, idem());
  const recharge = async () =>
    c.call(
      'user/recharge',
      { channelId, amountMinor: 200_000, receiptUploadId: await uploadOk(c, F.token, 'receipt', png(200)) },
      F.token,
      idem(),
    );

  beforeAll(async () => {
    F = await readyMember(c, op, INVITE, '0955555555', { idSeed: 15, channelId, depositMinor: 200_000_000 });
    const rates = ok(await c.call('user/rates', {}, F.token), 'rates') as Array<{ currency: string }>;
    if (!rates.some((r) => r.currency === 'TWD'))
      ok(
        await c.call('admin/saveRate', { currency: 'TWD', buyPpm: 31_400_000, sellPpm: 31_600_000 }, op),
        'rate',
      );
  });

  it('disabled: the session is refused and login is refused; re-enabled, login works', async () => {
    await setFlags({ disabled: true });
    expect(
      refused(await c.call('user/info', {}, F.token), [401, 403], ['notLoggedIn', 'accountDisabled']),
    ).toBeNull();
    expect(refused(await login(), [403], ['accountDisabled'])).toBeNull();
    await setFlags({ disabled: false });
    F.token = ok(await login(), 'login').token;
    ok(await c.call('user/info', {}, F.token), 'info');
  });

  it('login banned: the session is refused and login is refused; cleared, login works', async () => {
    await setFlags({ loginBanned: true });
    expect(
      refused(await c.call('user/info', {}, F.token), [401, 403], ['notLoggedIn', 'accountFrozen']),
    ).toBeNull();
    expect(refused(await login(), [403], ['accountFrozen'])).toBeNull();
    await setFlags({ loginBanned: false });
    F.token = ok(await login(), 'login').token;
    ok(await c.call('user/info', {}, F.token), 'info');
  });

  it('withdrawal banned: user/withdraw is refused with 403 and moves nothing; cleared, it works', async () => {
    await setFlags({ withdrawBanned: true });
    const before = await h.moneyState();
    expect(refused(await withdraw(), [403], ['cannotWithdrawOrTrade'])).toBeNull();
    expect(await h.moneyState()).toEqual(before);
    ok(await placeOrder(), 'trading is still allowed');
    await setFlags({ withdrawBanned: false });
    const w = ok(await withdraw(), 'withdraw');
    ok(await c.call('admin/rejectWithdrawal', { id: w.id, reason: 'test' }, op), 'reject');
  });

  it('trading banned: trade/placeOrder is refused with 403 and moves nothing; cleared, it works', async () => {
    await setFlags({ tradeBanned: true });
    const before = await h.moneyState();
    expect(refused(await placeOrder(), [403], ['cannotWithdrawOrTrade'])).toBeNull();
    expect(await h.moneyState()).toEqual(before);
    await setFlags({ tradeBanned: false });
    ok(await placeOrder(), 'placeOrder');
  });

  it('frozen: deposits, withdrawals, exchanges and orders are refused and move nothing; unfrozen, they work', async () => {
    await setFlags({ frozen: true });
    ok(await c.call('user/info', {}, F.token), 'the session itself survives');
    const before = await h.moneyState();
    const frozenKeys = ['accountFrozen', 'cannotWithdrawOrTrade'];
    expect(refused(await recharge(), [403], frozenKeys), 'recharge').toBeNull();
    expect(refused(await withdraw(), [403], frozenKeys), 'withdraw').toBeNull();
    expect(refused(await exchange(), [403], frozenKeys), 'exchange').toBeNull();
    expect(refused(await placeOrder(), [403], frozenKeys), 'placeOrder').toBeNull();
    expect(await h.moneyState()).toEqual(before);
    await setFlags({ frozen: false });
    const w = ok(await withdraw(), 'withdraw');
    ok(await c.call('admin/rejectWithdrawal', { id: w.id, reason: 'test' }, op), 'reject');
    ok(await exchange(), 'exchange');
    ok(await placeOrder(), 'placeOrder');
    ok(await recharge(), 'recharge');
  });
});
