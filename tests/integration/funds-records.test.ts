/**
 * What the member sees of their money: user/balances per currency, user/fundRecords per tab
 * (postings of every currency, the member's requests on page 1 of their tab) and the CSV statement
 * (Asia/Taipei days, inclusive, at most 366; every posting oldest first; sums equal the balances).
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberBalances } from '../../server/modules/ledger/ledger';
import { FUNDS_PASSWORD, idem, startHarness, type Harness } from './harness';

let h: Harness;
let op: string;
let m: { token: string; userId: number; cardId: number };
let other: string;
let withdrawalId: number;
let exchangeId: number;

const COLUMNS = 'time,transaction,type,account,currency,amount,reference';
const taipeiDay = (plusDays: number) =>
  DateTime.now().setZone('Asia/Taipei').plus({ days: plusDays }).toISODate()!;

/** Parses the statement (no field of ours needs quoting: checked by the column patterns below). */
function parse(csv: string) {
  const [header, ...lines] = csv.trimEnd().split('\n');
  return {
    header,
    rows: lines.map((l) => {
      const [time, transaction, type, account, currency, amount, reference] = l.split(',');
      return {
        time: time!,
        transaction: Number(transaction),
        type,
        account,
        currency,
        amount: amount!,
        reference,
      };
    }),
  };
}

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
  m = await h.withdrawer('0950000001', 5_000_000); // NT$50,000 deposited
  other = await h.fundedMember('0950000002', 2_000_000);
  const ex = await h.call(
    'user/exchange',
    { from: 'TWD', to: 'USD', amountMinor: 3_199_000 },
    m.token,
    idem(),
  );
  expect(ex.body.status).toBe(1);
  exchangeId = ex.body.data.id;
  const w = await h.call(
    'user/withdraw',
    { amountMinor: 1_000_000, fundsPassword: FUNDS_PASSWORD, cardId: m.cardId },
    m.token,
    idem(),
  );
  expect(w.body.status).toBe(1);
  withdrawalId = w.body.data.id;
  expect((await h.call('admin/approveWithdrawal', { id: withdrawalId }, op)).body.status).toBe(1);
});
afterAll(async () => h?.close());

describe('user/balances', () => {
  it('one row per currency the member holds, TWD first', async () => {
    const r = await h.call('user/balances', {}, m.token);
    expect(r.body.data).toEqual([
      { currency: 'TWD', availableMinor: 5_000_000 - 3_199_000 - 1_000_000, frozenMinor: 0, marginMinor: 0 },
      { currency: 'USD', availableMinor: 100_000, frozenMinor: 0, marginMinor: 0 },
    ]);
    const o = await h.call('user/balances', {}, other);
    expect(o.body.data).toEqual([
      { currency: 'TWD', availableMinor: 2_000_000, frozenMinor: 0, marginMinor: 0 },
    ]);
  });
});

describe('user/fundRecords', () => {
  it('each tab holds its own types and its own requests only', async () => {
    const tab = async (t: string) =>
      (await h.call('user/fundRecords', { tab: t, page: 1, pageSize: 200 }, m.token)).body.data;
    const dep = await tab('deposit');
    expect(dep.items.map((p: { type: string }) => p.type)).toEqual(['deposit']);
    expect(dep.deposits).toHaveLength(1);
    expect([dep.withdrawals, dep.exchanges]).toEqual([[], []]);
    const wd = await tab('withdrawal');
    expect(new Set(wd.items.map((p: { type: string }) => p.type))).toEqual(
      new Set(['withdrawal', 'withdrawalPaid']),
    );
    expect(wd.withdrawals.map((w: { id: number }) => w.id)).toEqual([withdrawalId]);
    expect([wd.deposits, wd.exchanges]).toEqual([[], []]);
    const ex = await tab('exchange');
    expect(
      ex.items.map((p: { currency: string; amountMinor: number }) => [p.currency, p.amountMinor]),
    ).toEqual([
      ['USD', 100_000],
      ['TWD', -3_199_000],
    ]);
    expect(ex.exchanges.map((e: { id: number }) => e.id)).toEqual([exchangeId]);
    const trade = await tab('trade');
    expect(trade).toMatchObject({ items: [], total: 0, deposits: [], withdrawals: [], exchanges: [] });
  });
});

describe('user/statement', () => {
  it('every posting in the range, oldest first, as CSV; the sums equal the balances', async () => {
    const from = taipeiDay(-1);
    const to = taipeiDay(1);
    const r = await h.call('user/statement', { from, to }, m.token);
    expect(r.body.status).toBe(1);
    expect(r.body.data.filename).toBe(`statement-${from}-${to}.csv`);
    const { header, rows } = parse(r.body.data.csv);
    expect(header).toBe(COLUMNS);
    expect(r.body.data.rows).toBe(rows.length);
    // deposit (1 leg) + exchange (2 member legs) + withdrawal (2) + paid (1)
    expect(rows.map((x) => [x.type, x.account, x.currency, x.amount, x.reference])).toEqual([
      ['deposit', 'available', 'TWD', '50000.00', expect.stringMatching(/^deposit:\d+$/)],
      ['exchange', 'available', 'TWD', '-31990.00', `exchange:${exchangeId}`],
      ['exchange', 'available', 'USD', '1000.00', `exchange:${exchangeId}`],
      ['withdrawal', 'available', 'TWD', '-10000.00', `withdrawal:${withdrawalId}`],
      ['withdrawal', 'frozen', 'TWD', '10000.00', `withdrawal:${withdrawalId}`],
      ['withdrawalPaid', 'frozen', 'TWD', '-10000.00', `withdrawal:${withdrawalId}`],
    ]);
    for (const x of rows) {
      expect(x.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+08:00$/);
      expect(Number.isSafeInteger(x.transaction)).toBe(true);
    }
    const times = rows.map((x) => Date.parse(x.time));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // Sums per (currency, account) equal the member's balances.
    const sum = (currency: string, account: string) =>
      rows
        .filter((x) => x.currency === currency && x.account === account)
        .reduce((s, x) => s + Math.round(Number(x.amount) * 100), 0);
    for (const currency of ['TWD', 'USD']) {
      const bal = await memberBalances(h.database.db, m.userId, currency);
      expect(sum(currency, 'available')).toBe(bal.available);
      expect(sum(currency, 'frozen')).toBe(bal.frozen);
    }
    // Another member's statement has none of these.
    const o = parse((await h.call('user/statement', { from, to }, other)).body.data.csv);
    expect(o.rows.map((x) => x.type)).toEqual(['deposit']);
  });

  it('a range with nothing in it is a header-only CSV', async () => {
    const r = await h.call('user/statement', { from: '2020-01-01', to: '2020-01-31' }, m.token);
    expect(r.body.data).toEqual({
      filename: 'statement-2020-01-01-2020-01-31.csv',
      csv: `${COLUMNS}\n`,
      rows: 0,
    });
  });

  it('at most 366 days; from after to and malformed dates refused with 400 parameterError', async () => {
    const leap = await h.call('user/statement', { from: '2024-01-01', to: '2024-12-31' }, m.token); // 366 days
    expect(leap.body.status).toBe(1);
    for (const body of [
      { from: '2024-01-01', to: '2025-01-01' }, // 367 days
      { from: '2025-01-01', to: '2026-01-02' }, // 367 days
      { from: '2026-01-02', to: '2026-01-01' },
      { from: '2026-02-30', to: '2026-03-01' },
      { from: '2026-1-1', to: '2026-01-02' },
    ]) {
      const r = await h.call('user/statement', body, m.token);
      expect([r.http, r.body.msg], JSON.stringify(body)).toEqual([400, 'parameterError']);
    }
    expect((await h.call('user/statement', { from: '2026-01-01', to: '2026-01-01' })).http).toBe(401);
  });
});
