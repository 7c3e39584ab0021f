/**
 * Fixtures for the money tests, on any ApiClient (in-process or over HTTP): members with a
 * verified identity (KYC photos uploaded, operator approval), a bank card, a funds password and a
 * balance deposited through a channel with a receipt and an idempotency key; deposit hours opened
 * and channels created through the operator endpoints. Every step goes through the public API, so
 * the fixtures exercise the same rules as the tests.
 */
import type { ApiClient, Answer } from './client';
import { idem, newKey, uploadOk } from './client';
import { png } from './files';
import { idNumberFor } from '../../support/taiwan-id';

export const LOGIN_PASSWORD = 'password123';
export const FUNDS_PASSWORD = '246810';

/** Throws with the answer unless it is a success envelope; returns its data. */
export function ok(a: Answer, what: string): any {
  if (a.body.status !== 1) throw new Error(`${what} failed: ${a.http} ${JSON.stringify(a.body)}`);
  return a.body.data;
}

const REGION_A = [1, 0]; // letter A = 10 (contract/identity-rules.ts)
const WEIGHTS = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1];

/** A valid Taiwan national ID number (region A, male), distinct for each `n` below 10^7. */
export function taiwanId(n: number): string {
  const body = [
    1,
    ...String(n % 10_000_000)
      .padStart(7, '0')
      .split('')
      .map(Number),
  ];
  const digits = [...REGION_A, ...body];
  const sum = digits.reduce((s, d, i) => s + d * WEIGHTS[i]!, 0);
  const check = (10 - (sum % 10)) % 10;
  return `A${body.join('')}${check}`;
}

/** The same ID number with a wrong check digit. */
export const wrongCheckDigit = (id: string): string =>
  id.slice(0, -1) + String((Number(id.slice(-1)) + 1) % 10);

/** A real name for a ten-digit account (names may hold no digits): "Lin Bcdefghija". */
export function nameFor(account: string): string {
  const letters = account
    .split('')
    .map((d) => String.fromCharCode(97 + Number(d)))
    .join('');
  return `Lin ${letters[0]!.toUpperCase()}${letters.slice(1)}`;
}

/** A card number for an account (13 digits, distinct per account and `n`). */
export const cardNumberFor = (account: string, n = 0): string => `9${account}${String(n).padStart(2, '0')}`;

/** Registers a member; returns the session token. */
export async function register(
  c: ApiClient,
  account: string,
  invite: string,
  password = LOGIN_PASSWORD,
): Promise<string> {
  const data = ok(
    await c.call('user/register', {
      account,
      password,
      confirmPassword: password,
      inviteCode: invite,
      agree: true,
    }),
    `register ${account}`,
  );
  return data.token as string;
}

/** Logs an operator in; returns the token. */
export async function operatorLogin(c: ApiClient, account: string, password: string): Promise<string> {
  return ok(await c.call('admin/login', { account, password }), 'operator login').token as string;
}

/** Saves one site setting as an operator. */
export async function saveSetting(c: ApiClient, op: string, name: string, value: string): Promise<void> {
  ok(await c.call('admin/saveConfig', { name, value }, op), `saveConfig ${name}=${value}`);
}

/**
 * Opens deposits between `open` and `close` (HH:MM Asia/Taipei) every day, holidays included,
 * so tests do not depend on the calendar day they run on.
 */
export async function openDepositHours(
  c: ApiClient,
  op: string,
  open = '00:00',
  close = '23:59',
): Promise<void> {
  await saveSetting(c, op, 'depositOpen', open);
  await saveSetting(c, op, 'depositClose', close);
  await saveSetting(c, op, 'depositWeekdaysOnly', 'false');
  await saveSetting(c, op, 'depositHolidaysClosed', 'false');
}

/** Creates a TWD deposit channel; returns its id. */
export async function createChannel(
  c: ApiClient,
  op: string,
  opts: { name?: string; minMinor?: number; maxMinor?: number; password?: string; enabled?: boolean } = {},
): Promise<number> {
  const data = ok(
    await c.call(
      'admin/saveChannel',
      {
        name: opts.name ?? 'Test channel',
        accountName: 'TW Trade Ltd',
        accountNumber: '00123456789012',
        bankName: 'Bank of Taiwan',
        branch: 'Taipei Main',
        currency: 'TWD',
        minMinor: opts.minMinor ?? 100_000,
        maxMinor: opts.maxMinor ?? 1_000_000_000,
        ...(opts.password !== undefined ? { password: opts.password } : {}),
        enabled: opts.enabled ?? true,
      },
      op,
    ),
    'saveChannel',
  );
  return data.id as number;
}

/** The member's user id, looked up by the operator. */
export async function userIdOf(c: ApiClient, op: string, account: string): Promise<number> {
  const data = ok(await c.call('admin/users', { q: account, page: 1, pageSize: 20 }, op), 'admin/users');
  const u = (data.items as Array<{ id: number; account: string }>).find((x) => x.account === account);
  if (!u) throw new Error(`no user ${account}`);
  return u.id;
}

/** Uploads ID photos and submits KYC; returns the two upload ids. */
export async function submitKyc(
  c: ApiClient,
  token: string,
  name: string,
  idNumber: string,
): Promise<{ frontUploadId: string; backUploadId: string }> {
  const frontUploadId = await uploadOk(c, token, 'kycFront', png(1));
  const backUploadId = await uploadOk(c, token, 'kycBack', png(2));
  ok(await c.call('user/submitKyc', { name, idNumber, frontUploadId, backUploadId }, token), 'submitKyc');
  return { frontUploadId, backUploadId };
}

/** The id of `account`'s KYC submission awaiting review. */
export async function pendingKycId(c: ApiClient, op: string, account: string): Promise<number> {
  for (let page = 1; page < 100; page++) {
    const data = ok(await c.call('admin/kyc', { status: 'pending', page, pageSize: 200 }, op), 'admin/kyc');
    const items = data.items as Array<{ id: number; account: string; status: string }>;
    const mine = items.find((k) => k.account === account && k.status === 'review');
    if (mine) return mine.id;
    if (items.length < 200) break;
  }
  throw new Error(`no KYC under review for ${account}`);
}

/** Submits KYC and has the operator approve it. */
export async function verify(
  c: ApiClient,
  op: string,
  token: string,
  account: string,
  name: string,
  idNumber: string,
): Promise<void> {
  await submitKyc(c, token, name, idNumber);
  ok(await c.call('admin/approveKyc', { id: await pendingKycId(c, op, account) }, op), 'approveKyc');
}

/**
 * Verifies the member's identity unless it already is (deposits, subscriptions and auction bids
 * need it): submits name and an ID number derived from the account (tests/support/taiwan-id.ts)
 * and has the operator approve; approves a submission already in review.
 */
export async function ensureVerified(c: ApiClient, op: string, token: string): Promise<void> {
  const info = ok(await c.call('user/info', {}, token), 'user/info') as {
    account: string;
    kycStatus: string;
  };
  if (info.kycStatus === 'verified') return;
  if (info.kycStatus !== 'review')
    await submitKyc(c, token, nameFor(info.account), idNumberFor(info.account));
  ok(await c.call('admin/approveKyc', { id: await pendingKycId(c, op, info.account) }, op), 'approveKyc');
}

/** Adds a bank card; returns its id. */
export async function addCard(
  c: ApiClient,
  token: string,
  holderName: string,
  cardNumber: string,
): Promise<number> {
  const data = ok(
    await c.call(
      'user/addBankCard',
      {
        holderName,
        cardNumber,
        bankCode: '013',
        bankName: 'Cathay United Bank',
        branchName: 'Xinyi',
        branchCode: '0077',
      },
      token,
    ),
    'addBankCard',
  );
  return data.id as number;
}

/** Sets the member's funds password (first time). */
export async function setFundsPassword(
  c: ApiClient,
  token: string,
  password = FUNDS_PASSWORD,
): Promise<void> {
  ok(
    await c.call('user/setPassword', { fundsPassword: password, confirmFundsPassword: password }, token),
    'setPassword',
  );
}

/** Receipts sent by requestDeposit: each a different file, as a new transfer has a new receipt. */
let receiptsSent = 0;

/** Requests a deposit with a freshly uploaded receipt; returns the pending deposit's id. */
export async function requestDeposit(
  c: ApiClient,
  token: string,
  channelId: number,
  amountMinor: number,
  opts: { channelPassword?: string; key?: string } = {},
): Promise<number> {
  const receiptUploadId = await uploadOk(c, token, 'receipt', png(3_000_000 + ++receiptsSent));
  const data = ok(
    await c.call(
      'user/recharge',
      {
        channelId,
        amountMinor,
        receiptUploadId,
        ...(opts.channelPassword !== undefined ? { channelPassword: opts.channelPassword } : {}),
      },
      token,
      idem(opts.key ?? newKey()),
    ),
    'recharge',
  );
  return data.id as number;
}

/** Verifies the member when needed, requests a deposit and has the operator approve it. */
export async function deposit(
  c: ApiClient,
  op: string,
  token: string,
  channelId: number,
  amountMinor: number,
  opts: { channelPassword?: string } = {},
): Promise<number> {
  await ensureVerified(c, op, token);
  const id = await requestDeposit(c, token, channelId, amountMinor, opts);
  ok(await c.call('admin/approveDeposit', { id }, op), 'approveDeposit');
  return id;
}

/** A member ready to move money. */
export interface ReadyMember {
  account: string;
  token: string;
  userId: number;
  name: string;
  idNumber: string;
  /** Undefined when created with `card: false`. */
  cardId?: number;
}

/**
 * Registers a member and, as asked: verifies the identity, adds a card, sets the funds password,
 * deposits (and approves) `depositMinor` through `channelId`.
 */
export async function readyMember(
  c: ApiClient,
  op: string,
  invite: string,
  account: string,
  opts: {
    idSeed: number;
    channelId?: number;
    depositMinor?: number;
    verified?: boolean;
    card?: boolean;
    fundsPassword?: boolean;
  },
): Promise<ReadyMember> {
  const token = await register(c, account, invite);
  const name = nameFor(account);
  const idNumber = taiwanId(opts.idSeed);
  const m: ReadyMember = { account, token, userId: await userIdOf(c, op, account), name, idNumber };
  if (opts.verified ?? true) await verify(c, op, token, account, name, idNumber);
  if ((opts.verified ?? true) && (opts.card ?? true))
    m.cardId = await addCard(c, token, name, cardNumberFor(account));
  if (opts.fundsPassword ?? true) await setFundsPassword(c, token);
  if (opts.depositMinor) {
    if (opts.channelId === undefined) throw new Error('readyMember: depositMinor needs channelId');
    await deposit(c, op, token, opts.channelId, opts.depositMinor);
  }
  return m;
}

/** The member's TWD balances as user/balances reports them. */
export async function twdBalances(
  c: ApiClient,
  token: string,
): Promise<{ availableMinor: number; frozenMinor: number; marginMinor: number }> {
  const rows = ok(await c.call('user/balances', {}, token), 'balances') as Array<{
    currency: string;
    availableMinor: number;
    frozenMinor: number;
    marginMinor: number;
  }>;
  const twd = rows.find((r) => r.currency === 'TWD');
  return twd ?? { availableMinor: 0, frozenMinor: 0, marginMinor: 0 };
}
