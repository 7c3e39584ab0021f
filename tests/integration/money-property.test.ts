/**
 * Money safety as a property (seeded fast-check, after tldraw's record-store
 * fuzzing): random sequences of deposits, approvals, rejections, exchanges both ways, withdrawals
 * and their reviews, and replayed idempotent requests, across 2–3 members, run through the real
 * API against a model that predicts every answer. After every step each member's TWD and USD
 * balances equal the model's and every refused operation changed no money table; after every
 * sequence the ledger reconciles clean (cached = SUM(postings), every transaction balanced per
 * currency, no non-negative account below zero), the postings of each currency sum to zero, and for
 * each member, from the business tables alone:
 *   TWD available + frozen = approved deposits − paid withdrawals − TWD sent to exchanges + TWD received
 *   USD available + frozen = USD received from exchanges − USD sent
 * 50 sequences on each database.
 */
import fc from 'fast-check';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertMinorFloor } from '../../contract/money';
import { deposits, withdrawals } from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { FUNDS_PASSWORD, idem, startHarness, type Harness } from './harness';

const TWD_BUY = 31_840_000; // Bank of Taiwan 2026-03-13 (seeded)
const TWD_SELL = 31_990_000;
const CH_MIN = 100_000; // the property channel: NT$1,000 … NT$500,000
const CH_MAX = 50_000_000;
const W_MIN = 100_000; // default withdrawal limits
const W_MAX = 500_000_000;

let h: Harness;
let op: string;
let channelId: number;
const pool: Array<{ account: string; token: string; userId: number; cardId: number }> = [];

type Op =
  | { kind: 'deposit'; m: number; amount: number }
  | { kind: 'approveDeposit' | 'rejectDeposit'; pick: number }
  | { kind: 'exchange'; m: number; toUsd: boolean; amount: number }
  | { kind: 'withdraw'; m: number; amount: number }
  | { kind: 'approveWithdrawal' | 'rejectWithdrawal'; pick: number }
  | { kind: 'retry' };

const member = fc.integer({ min: 0, max: 2 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      m: member,
      amount: fc.integer({ min: 50_000, max: 60_000_000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('approveDeposit' as const), pick: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rejectDeposit' as const), pick: fc.nat(20) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('exchange' as const),
      m: member,
      toUsd: fc.boolean(),
      amount: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40_000_000 })),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      m: member,
      amount: fc.integer({ min: 50_000, max: 20_000_000 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('approveWithdrawal' as const), pick: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rejectWithdrawal' as const), pick: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'retry' as const }) },
);
const scenarioArb = fc.record({
  members: fc.integer({ min: 2, max: 3 }),
  ops: fc.array(opArb, { minLength: 4, maxLength: 14 }),
});

interface Bal {
  twdAvail: number;
  twdFrozen: number;
  usdAvail: number;
  usdFrozen: number;
}
interface Answer {
  http: number;
  body: { status: number; msg: string; data: any };
}

async function balances(userId: number): Promise<Bal> {
  const twd = await memberBalances(h.database.db, userId, 'TWD');
  const usd = await memberBalances(h.database.db, userId, 'USD');
  return { twdAvail: twd.available, twdFrozen: twd.frozen, usdAvail: usd.available, usdFrozen: usd.frozen };
}

/** Rejects whatever a previous (possibly failed) sequence left pending, so each sequence starts settled. */
async function settle() {
  for (const p of pool) {
    const pendW = await h.database.db
      .select({ id: withdrawals.id })
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, p.userId), eq(withdrawals.status, 'pending')));
    for (const w of pendW) await h.call('admin/rejectWithdrawal', { id: w.id, reason: 'settle' }, op);
    const pendD = await h.database.db
      .select({ id: deposits.id })
      .from(deposits)
      .where(and(eq(deposits.userId, p.userId), eq(deposits.status, 'pending')));
    for (const d of pendD) await h.call('admin/rejectDeposit', { id: d.id, reason: 'settle' }, op);
  }
}

/** The invariants that hold whatever happened: ledger clean, currencies balanced, flows = balances. */
async function checkLedger() {
  const r = await reconcile(h.database.db);
  expect(isClean(r), JSON.stringify(r)).toBe(true);
  const sums = (await h.database.db.execute(
    sql`select currency, sum(amount_minor)::text as s from ledger_postings group by currency`,
  )) as unknown as { rows?: Array<{ currency: string; s: string }> } & Array<{ currency: string; s: string }>;
  for (const row of sums.rows ?? sums) expect(Number(row.s), row.currency).toBe(0);
  for (const p of pool) {
    const res = (await h.database.db.execute(sql`
      select
        (select coalesce(sum(amount_minor), 0) from deposits
          where user_id = ${p.userId} and status = 'approved' and currency = 'TWD')::text as deposited,
        (select coalesce(sum(amount_minor), 0) from withdrawals
          where user_id = ${p.userId} and status = 'approved')::text as paid,
        (select coalesce(sum(from_minor), 0) from exchanges
          where user_id = ${p.userId} and from_currency = 'TWD')::text as twd_out,
        (select coalesce(sum(to_minor), 0) from exchanges
          where user_id = ${p.userId} and to_currency = 'TWD')::text as twd_in,
        (select coalesce(sum(from_minor), 0) from exchanges
          where user_id = ${p.userId} and from_currency = 'USD')::text as usd_out,
        (select coalesce(sum(to_minor), 0) from exchanges
          where user_id = ${p.userId} and to_currency = 'USD')::text as usd_in`)) as unknown as {
      rows?: Array<Record<string, string>>;
    } & Array<Record<string, string>>;
    const f = Object.fromEntries(Object.entries((res.rows ?? res)[0]!).map(([k, v]) => [k, Number(v)]));
    const b = await balances(p.userId);
    expect(b.twdAvail + b.twdFrozen, `TWD of ${p.account}`).toBe(
      f.deposited! - f.paid! - f.twd_out! + f.twd_in!,
    );
    expect(b.usdAvail + b.usdFrozen, `USD of ${p.account}`).toBe(f.usd_in! - f.usd_out!);
  }
}

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
  const ch = await h.call(
    'admin/saveChannel',
    {
      name: 'Property channel',
      accountName: 'TW Trade Ltd',
      accountNumber: '0099887766554',
      bankName: 'Bank of Taiwan',
      branch: 'Taipei Main',
      currency: 'TWD',
      minMinor: CH_MIN,
      maxMinor: CH_MAX,
      enabled: true,
    },
    op,
  );
  channelId = ch.body.data.id;
  for (let i = 0; i < 3; i++) {
    const account = `096000000${i}`;
    pool.push({ account, ...(await h.withdrawer(account, 1_000_000)) });
  }
});
afterAll(async () => h?.close());

describe('money property', () => {
  it('random sequences keep every ledger invariant and the model’s balances', async () => {
    const runs = 50;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ members, ops }) => {
        await settle();
        const who = pool.slice(0, members);
        const model = new Map<number, Bal>();
        for (const p of who) model.set(p.userId, await balances(p.userId));
        const deps: Array<{ id: number; userId: number; amount: number; status: string }> = [];
        const wds: Array<{ id: number; userId: number; amount: number; status: string }> = [];
        /** The last money-moving request and its answer (replayed by 'retry'). */
        const last: {
          v: {
            name: string;
            body: unknown;
            token: string;
            headers: Record<string, string>;
            answer: Answer;
          } | null;
        } = { v: null };

        const send = async (name: any, body: unknown, token: string, money = false): Promise<Answer> => {
          const headers = money ? idem() : {};
          const answer = (await h.call(name, body, token, headers)) as Answer;
          if (money) last.v = { name, body, token, headers, answer };
          return answer;
        };
        /** Runs one request expected to be refused (http, msg) and checks it changed no money table. */
        const refuse = async (http: number, msg: string, run: () => Promise<Answer>) => {
          const before = await h.moneyState();
          const a = await run();
          expect([a.http, a.body.msg], JSON.stringify(a.body)).toEqual([http, msg]);
          expect(await h.moneyState()).toEqual(before);
        };
        const succeed = async (run: () => Promise<Answer>) => {
          const a = await run();
          expect(a.body.status, JSON.stringify(a.body)).toBe(1);
          return a.body.data;
        };

        for (const o of ops) {
          switch (o.kind) {
            case 'deposit': {
              const p = who[o.m % who.length]!;
              const body = {
                channelId,
                amountMinor: o.amount,
                receiptUploadId: await h.uploadReceipt(p.token),
              };
              const run = () => send('user/recharge', body, p.token, true);
              if (o.amount < CH_MIN) await refuse(400, 'belowMinDeposit', run);
              else if (o.amount > CH_MAX) await refuse(400, 'aboveMaxDeposit', run);
              else {
                const d = await succeed(run);
                deps.push({ id: d.id, userId: p.userId, amount: o.amount, status: 'pending' });
              }
              break;
            }
            case 'approveDeposit':
            case 'rejectDeposit': {
              if (!deps.length) break;
              const d = deps[o.pick % deps.length]!;
              const approve = o.kind === 'approveDeposit';
              const run = () =>
                send(
                  approve ? 'admin/approveDeposit' : 'admin/rejectDeposit',
                  approve ? { id: d.id } : { id: d.id, reason: 'p' },
                  op,
                );
              if (d.status !== 'pending') await refuse(409, 'operationFailed', run);
              else {
                await succeed(run);
                d.status = approve ? 'approved' : 'rejected';
                if (approve) model.get(d.userId)!.twdAvail += d.amount;
              }
              break;
            }
            case 'exchange': {
              const p = who[o.m % who.length]!;
              const b = model.get(p.userId)!;
              const from = o.toUsd ? 'TWD' : 'USD';
              const to = o.toUsd ? 'USD' : 'TWD';
              const got = convertMinorFloor(
                o.amount,
                o.toUsd ? TWD_SELL : TWD_BUY,
                o.toUsd ? 'toUsd' : 'fromUsd',
              );
              const have = o.toUsd ? b.twdAvail : b.usdAvail;
              const run = () => send('user/exchange', { from, to, amountMinor: o.amount }, p.token, true);
              if (got === 0) await refuse(400, 'parameterError', run);
              else if (o.amount > have) await refuse(422, 'insufficientBalance', run);
              else {
                const e = await succeed(run);
                expect([e.fromMinor, e.toMinor]).toEqual([o.amount, got]);
                if (o.toUsd) {
                  b.twdAvail -= o.amount;
                  b.usdAvail += got;
                } else {
                  b.usdAvail -= o.amount;
                  b.twdAvail += got;
                }
              }
              break;
            }
            case 'withdraw': {
              const p = who[o.m % who.length]!;
              const b = model.get(p.userId)!;
              const run = () =>
                send(
                  'user/withdraw',
                  { amountMinor: o.amount, fundsPassword: FUNDS_PASSWORD, cardId: p.cardId },
                  p.token,
                  true,
                );
              if (o.amount < W_MIN) await refuse(400, 'belowMinWithdraw', run);
              else if (o.amount > W_MAX) await refuse(400, 'aboveMaxWithdraw', run);
              else if (wds.some((w) => w.userId === p.userId && w.status === 'pending'))
                await refuse(409, 'otherFundOperation', run);
              else if (o.amount > b.twdAvail) await refuse(422, 'insufficientBalance', run);
              else {
                const w = await succeed(run);
                wds.push({ id: w.id, userId: p.userId, amount: o.amount, status: 'pending' });
                b.twdAvail -= o.amount;
                b.twdFrozen += o.amount;
              }
              break;
            }
            case 'approveWithdrawal':
            case 'rejectWithdrawal': {
              if (!wds.length) break;
              const w = wds[o.pick % wds.length]!;
              const approve = o.kind === 'approveWithdrawal';
              const run = () =>
                send(
                  approve ? 'admin/approveWithdrawal' : 'admin/rejectWithdrawal',
                  approve ? { id: w.id } : { id: w.id, reason: 'p' },
                  op,
                );
              if (w.status !== 'pending') await refuse(409, 'operationFailed', run);
              else {
                await succeed(run);
                w.status = approve ? 'approved' : 'rejected';
                const b = model.get(w.userId)!;
                b.twdFrozen -= w.amount;
                if (!approve) b.twdAvail += w.amount;
              }
              break;
            }
            case 'retry': {
              const l = last.v;
              if (!l) break;
              const before = await h.moneyState();
              const again = await h.call(l.name as any, l.body, l.token, l.headers);
              expect(again).toEqual(l.answer);
              expect(await h.moneyState()).toEqual(before);
              break;
            }
          }
          for (const p of who)
            expect(await balances(p.userId), `${p.account} after ${JSON.stringify(o)}`).toEqual(
              model.get(p.userId),
            );
        }
        await checkLedger();
      }),
      { seed: 20_260_401, numRuns: runs },
    );
  }, 900_000);
});
