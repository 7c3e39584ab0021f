/**
 * Funding a member over real HTTP, for the end-to-end tests, the crash test and the benchmarks:
 * the same steps a member and an operator take (open deposit hours, a deposit channel, a receipt
 * upload, a deposit request with an idempotency key, the operator's approval). Uses global fetch.
 */
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import type { EndpointName } from '../../contract/api';
import { idNumberFor } from './taiwan-id';

/** The response envelope as parsed JSON. */
export interface Env<T = any> {
  status: number;
  msg: string;
  data: T;
}

/** `call(name, body, token?, headers?)` → the envelope (HTTP errors still return their envelope). */
export type HttpCall = <T = any>(
  name: EndpointName,
  body: unknown,
  token?: string,
  headers?: Record<string, string>,
) => Promise<Env<T>>;

/** A JSON API caller against `baseUrl` (e.g. http://127.0.0.1:3100). */
export function httpApi(baseUrl: string): HttpCall {
  return async (name, body, token, headers = {}) => {
    const res = await fetch(`${baseUrl}/api/vue/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}), ...headers },
      body: JSON.stringify(body ?? {}),
    });
    return (await res.json()) as Env;
  };
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A valid `size`×`size` PNG of one RGB colour (real image bytes, so content detection says image/png). */
export function solidPng(size = 8, rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads `bytes` as `purpose` (multipart) and returns the upload id; throws on refusal. */
export async function uploadFile(
  baseUrl: string,
  token: string,
  purpose: 'kycFront' | 'kycBack' | 'receipt',
  bytes: Buffer = solidPng(),
  filename = 'image.png',
): Promise<string> {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), filename);
  const res = await fetch(`${baseUrl}/api/vue/upload`, { method: 'POST', headers: { token }, body: form });
  const body = (await res.json()) as Env<{ id: string }>;
  if (body.status !== 1) throw new Error(`upload ${purpose}: ${JSON.stringify(body)}`);
  return body.data.id;
}

/** The deposit channel the tests use (TWD, no channel password). */
export const TEST_CHANNEL = {
  name: 'E2E Bank transfer',
  accountName: 'TW Trade Co., Ltd.',
  accountNumber: '004001234567',
  bankName: 'Bank of Taiwan',
  branch: 'Taipei Main',
  currency: 'TWD',
  minMinor: 100_000, // NT$1,000
  maxMinor: 10_000_000_000, // NT$100,000,000
} as const;

/**
 * Opens deposits at every hour on every day (the tests run at any time; the default is weekdays
 * 09:30–19:30 Asia/Taipei, closed on exchange holidays) and makes sure TEST_CHANNEL exists
 * (idempotent). Returns its id.
 */
export async function prepareDeposits(call: HttpCall, operatorToken: string): Promise<number> {
  const settings: Array<[string, string]> = [
    ['depositOpen', '00:00'],
    ['depositClose', '24:00'],
    ['depositWeekdaysOnly', 'false'],
    ['depositHolidaysClosed', 'false'],
  ];
  for (const [name, value] of settings) {
    const r = await call('admin/saveConfig', { name, value }, operatorToken);
    if (r.status !== 1) throw new Error(`saveConfig ${name}: ${JSON.stringify(r)}`);
  }
  const list = await call<Array<{ id: number; name: string }>>('admin/channels', {}, operatorToken);
  if (list.status !== 1) throw new Error(`channels: ${JSON.stringify(list)}`);
  const found = list.data.find((c) => c.name === TEST_CHANNEL.name);
  if (found) return found.id;
  const made = await call<{ id: number }>('admin/saveChannel', TEST_CHANNEL, operatorToken);
  if (made.status !== 1) throw new Error(`saveChannel: ${JSON.stringify(made)}`);
  return made.data.id;
}

/**
 * Deposits `amountMinor` for the member (receipt, idempotency key) and approves it as the
 * operator; verifies the member's identity first when it is not (deposits need it).
 */
export async function depositApproved(
  baseUrl: string,
  memberToken: string,
  operatorToken: string,
  amountMinor: number,
): Promise<number> {
  const call = httpApi(baseUrl);
  await ensureVerifiedHttp(baseUrl, memberToken, operatorToken);
  const channelId = await prepareDeposits(call, operatorToken);
  const receiptUploadId = await uploadFile(baseUrl, memberToken, 'receipt');
  const dep = await call<{ id: number }>(
    'user/recharge',
    { channelId, amountMinor, receiptUploadId },
    memberToken,
    { 'idempotency-key': randomUUID() },
  );
  if (dep.status !== 1) throw new Error(`recharge: ${JSON.stringify(dep)}`);
  const ok = await call('admin/approveDeposit', { id: dep.data.id }, operatorToken);
  if (ok.status !== 1) throw new Error(`approveDeposit: ${JSON.stringify(ok)}`);
  return dep.data.id;
}

/**
 * Verifies the member's identity unless it already is: ID photos, name and an ID number derived
 * from the account (./taiwan-id.ts), approved by the operator (a submission in review is approved).
 */
export async function ensureVerifiedHttp(
  baseUrl: string,
  memberToken: string,
  operatorToken: string,
): Promise<void> {
  const call = httpApi(baseUrl);
  const info = await call<{ account: string; kycStatus: string }>('user/info', {}, memberToken);
  if (info.status !== 1) throw new Error(`user/info: ${JSON.stringify(info)}`);
  const { account, kycStatus } = info.data;
  if (kycStatus === 'verified') return;
  if (kycStatus !== 'review') {
    const sub = await call(
      'user/submitKyc',
      {
        name: `Lin ${account.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)}`,
        idNumber: idNumberFor(account),
        frontUploadId: await uploadFile(baseUrl, memberToken, 'kycFront', solidPng(8, [10, 120, 200])),
        backUploadId: await uploadFile(baseUrl, memberToken, 'kycBack', solidPng(8, [200, 120, 10])),
      },
      memberToken,
    );
    if (sub.status !== 1) throw new Error(`submitKyc: ${JSON.stringify(sub)}`);
  }
  for (let page = 1; page < 100; page++) {
    const q = await call<{ items: Array<{ id: number; account: string; status: string }> }>(
      'admin/kyc',
      { status: 'pending', page, pageSize: 200 },
      operatorToken,
    );
    if (q.status !== 1) throw new Error(`admin/kyc: ${JSON.stringify(q)}`);
    const mine = q.data.items.find((k) => k.account === account && k.status === 'review');
    if (mine) {
      const ok = await call('admin/approveKyc', { id: mine.id }, operatorToken);
      if (ok.status !== 1) throw new Error(`approveKyc: ${JSON.stringify(ok)}`);
      return;
    }
    if (q.data.items.length < 200) break;
  }
  throw new Error(`no KYC under review for ${account}`);
}
