/**
 * Currency exchange end to end (product-spec §3 "Exchange", §5 "Exchange", §9 "Exchange
 * currencies"): the rates seeded from the real Bank of Taiwan and TAIFEX samples, the operator's
 * rate table (never overwritten by seeding, audited), every exchange rule at its edge with nothing
 * written on a refusal, the price (sell rate buying USD, buy rate selling USD, rounded down, no
 * fee), the one ledger transaction balanced per currency through fx_conversion, idempotency, and
 * the member's balances and records.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, exchanges, fxRates, ledgerAccounts, ledgerPostings } from '../../server/db/schema';
import { seedFxRates } from '../../server/modules/fx/rate-source';
import { isClean, memberBalances, platformBalance, reconcile } from '../../server/modules/ledger/ledger';
import { idem, startHarness, type Harness } from './harness';

let h: Harness;
let op: string;
let member: string;
let memberId: number;

// Newest row of server/db/seed-data/reference/usd_twd_bank_of_taiwan_spot_2026.csv: 2026-03-13,31.84,31.99
const TWD_BUY = 31_840_000;
const TWD_SELL = 31_990_000;

async function ledgerClean() {
  const r = await reconcile(h.database.db);
  expect(isClean(r), JSON.stringify(r)).toBe(true);
}

const exchange = (from: string, to: string, amountMinor: number, token = member) =>
  h.call('user/exchange', { from, to, amountMinor }, token, idem());

async function refused(
  from: string,
  to: string,
  amountMinor: number,
  http: number,
  msg: string,
  token = member,
) {
  const before = await h.moneyState();
  const r = await exchange(from, to, amountMinor, token);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ status: 0, msg, data: null });
  expect(r.http).toBe(http);
  expect(await h.moneyState()).toEqual(before);
}

const platformFx = (currency: string) => platformBalance(h.database.db, 'fx_conversion', currency);

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
  member = await h.fundedMember('0940000001', 10_000_000); // NT$100,000
  memberId = await h.userId('0940000001');
});
afterAll(async () => h?.close());

describe('rates', () => {
  it('are seeded from the real samples: Bank of Taiwan USD/TWD, TAIFEX reference for CNY/JPY/HKD', async () => {
    const r = await h.call('user/rates', {}, member);
    expect(r.body.data).toEqual([
      {
        currency: 'TWD',
        buyPpm: TWD_BUY,
        sellPpm: TWD_SELL,
        source: 'Bank of Taiwan spot 2026-03-13',
        asOf: '2026-03-13',
      },
      {
        currency: 'CNY',
        buyPpm: 6_750_800,
        sellPpm: 6_750_800,
        source: 'TAIFEX daily reference rate 2023-01-30',
        asOf: '2023-01-30',
      },
      {
        currency: 'HKD',
        buyPpm: 7_835_850,
        sellPpm: 7_835_850,
        source: 'TAIFEX daily reference rate 2023-01-30',
        asOf: '2023-01-30',
      },
      {
        currency: 'JPY',
        buyPpm: 129_925_000,
        sellPpm: 129_925_000,
        source: 'TAIFEX daily reference rate 2023-01-30',
        asOf: '2023-01-30',
      },
    ]);
    expect((await h.call('admin/rates', {}, op)).body.data).toEqual(r.body.data);
    expect((await h.call('admin/rates', {}, member)).http).toBe(403);
  });

  it('an operator sets a rate (audited); seeding again never overwrites it', async () => {
    const saved = await h.call(
      'admin/saveRate',
      { currency: 'JPY', buyPpm: 150_000_000, sellPpm: 151_000_000 },
      op,
    );
    expect(saved.body.data).toMatchObject({
      currency: 'JPY',
      buyPpm: 150_000_000,
      sellPpm: 151_000_000,
      source: 'operator',
    });
    await seedFxRates(h.database.db);
    const [row] = await h.database.db.select().from(fxRates).where(eq(fxRates.currency, 'JPY'));
    expect(row).toMatchObject({ buyPpm: 150_000_000, sellPpm: 151_000_000, source: 'operator' });
    const [entry] = await h.database.db.select().from(auditLog).where(eq(auditLog.action, 'rate.update'));
    expect(JSON.parse(entry!.before!)).toMatchObject({ currency: 'JPY', buyPpm: 129_925_000 });
    expect(JSON.parse(entry!.after!)).toMatchObject({
      currency: 'JPY',
      buyPpm: 150_000_000,
      source: 'operator',
    });
    // sell below buy, USD itself, a member: refused.
    const bad = await h.call('admin/saveRate', { currency: 'JPY', buyPpm: 2, sellPpm: 1 }, op);
    expect([bad.http, bad.body.msg]).toEqual([400, 'parameterError']);
    expect((await h.call('admin/saveRate', { currency: 'USD', buyPpm: 1, sellPpm: 1 }, op)).http).toBe(422);
    expect((await h.call('admin/saveRate', { currency: 'JPY', buyPpm: 1, sellPpm: 1 }, member)).http).toBe(
      403,
    );
  });
});

describe('user/exchange rules', () => {
  it('the same currency → 422 sameCurrency; neither side USD → 400 parameterError', async () => {
    await refused('TWD', 'TWD', 10_000, 422, 'sameCurrency');
    await refused('USD', 'USD', 10_000, 422, 'sameCurrency');
    await refused('TWD', 'CNY', 10_000, 400, 'parameterError');
  });

  it('a frozen account → 403 accountFrozen', async () => {
    const token = await h.fundedMember('0940000009', 1_000_000);
    const id = await h.userId('0940000009');
    expect((await h.call('admin/setUserFlags', { id, frozen: true, reason: 'test' }, op)).body.status).toBe(
      1,
    );
    await refused('TWD', 'USD', 100_000, 403, 'accountFrozen', token);
  });

  it('a result that rounds to zero → 400 parameterError; one cent is enough', async () => {
    // NT$0.31 / 31.99 = US$0.0097 → 0; NT$0.32 / 31.99 = US$0.01000…
    await refused('TWD', 'USD', 31, 400, 'parameterError');
    const r = await exchange('TWD', 'USD', 32);
    expect(r.body.data).toMatchObject({
      from: 'TWD',
      to: 'USD',
      fromMinor: 32,
      toMinor: 1,
      ratePpm: TWD_SELL,
    });
    await ledgerClean();
  });

  it('more than the available cash → 422 insufficientBalance; not even the USD accounts are created', async () => {
    const token = await h.fundedMember('0940000002', 1_000_000);
    const id = await h.userId('0940000002');
    await refused('TWD', 'USD', 1_000_001, 422, 'insufficientBalance', token);
    const usd = await h.database.db
      .select()
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.userId, id), eq(ledgerAccounts.currency, 'USD')));
    expect(usd).toEqual([]);
    await refused('USD', 'TWD', 100, 422, 'insufficientBalance', token);
    // All of it is fine.
    expect((await exchange('TWD', 'USD', 1_000_000, token)).body.status).toBe(1);
    expect((await memberBalances(h.database.db, id, 'TWD')).available).toBe(0);
  });

  it('no rate → 422 rateUnavailable until an operator sets one', async () => {
    await refused('USD', 'THB', 100, 422, 'rateUnavailable');
    await refused('THB', 'USD', 100, 422, 'rateUnavailable');
    expect(
      (await h.call('user/rates', {}, member)).body.data.map((r: { currency: string }) => r.currency),
    ).not.toContain('THB');
    const set = await h.call(
      'admin/saveRate',
      { currency: 'THB', buyPpm: 32_500_000, sellPpm: 33_000_000 },
      op,
    );
    expect(set.body.status).toBe(1);
    expect((await exchange('TWD', 'USD', 31_990)).body.data.toMinor).toBe(1_000); // US$10.00
    const r = await exchange('USD', 'THB', 1_000);
    expect(r.body.data).toMatchObject({
      from: 'USD',
      to: 'THB',
      fromMinor: 1_000,
      toMinor: 32_500,
      ratePpm: 32_500_000,
    });
    expect((await memberBalances(h.database.db, memberId, 'THB')).available).toBe(32_500);
    await ledgerClean();
  });
});

describe('the exchange itself', () => {
  it('TWD → USD at the selling rate and back at the buying rate: one balanced transaction each, no fee', async () => {
    const twd0 = await memberBalances(h.database.db, memberId, 'TWD');
    const usd0 = await memberBalances(h.database.db, memberId, 'USD');
    const fxTwd0 = await platformFx('TWD');
    const fxUsd0 = await platformFx('USD');
    // NT$31,990.00 at 31.99 → US$1,000.00 exactly.
    const buy = await exchange('TWD', 'USD', 3_199_000);
    expect(buy.body).toMatchObject({ status: 1, msg: 'exchange' });
    expect(buy.body.data).toMatchObject({
      from: 'TWD',
      to: 'USD',
      fromMinor: 3_199_000,
      toMinor: 100_000,
      ratePpm: TWD_SELL,
    });
    expect((await memberBalances(h.database.db, memberId, 'TWD')).available).toBe(twd0.available - 3_199_000);
    expect((await memberBalances(h.database.db, memberId, 'USD')).available).toBe(usd0.available + 100_000);
    expect(await platformFx('TWD')).toBe(fxTwd0 + 3_199_000);
    expect(await platformFx('USD')).toBe(fxUsd0 - 100_000);
    const [row] = await h.database.db.select().from(exchanges).where(eq(exchanges.id, buy.body.data.id));
    expect(row).toMatchObject({
      userId: memberId,
      fromCurrency: 'TWD',
      toCurrency: 'USD',
      ratePpm: TWD_SELL,
    });
    // US$1,000.00 at 31.84 → NT$31,840.00: the spread is the only cost.
    const sell = await exchange('USD', 'TWD', 100_000);
    expect(sell.body.data).toMatchObject({ fromMinor: 100_000, toMinor: 3_184_000, ratePpm: TWD_BUY });
    expect((await memberBalances(h.database.db, memberId, 'TWD')).available).toBe(twd0.available - 15_000);
    expect((await memberBalances(h.database.db, memberId, 'USD')).available).toBe(usd0.available);
    // Rounded down: NT$100.00 / 31.99 = US$3.1259… → US$3.12.
    expect((await exchange('TWD', 'USD', 10_000)).body.data.toMinor).toBe(312);

    // The ledger transaction of the first exchange: four legs, zero per currency.
    const legs = await h.database.db
      .select({
        accountId: ledgerPostings.accountId,
        amount: ledgerPostings.amountMinor,
        currency: ledgerPostings.currency,
      })
      .from(ledgerPostings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
      .where(
        eq(
          ledgerPostings.transactionId,
          (
            await h.call('user/fundRecords', { tab: 'exchange', page: 1, pageSize: 200 }, member)
          ).body.data.items.find((p: { ref: string }) => p.ref === `exchange:${buy.body.data.id}`)
            .transactionId,
        ),
      );
    expect(legs.map((l) => [l.currency, l.amount]).sort()).toEqual(
      [
        ['TWD', -3_199_000],
        ['TWD', 3_199_000],
        ['USD', -100_000],
        ['USD', 100_000],
      ].sort(),
    );
    await ledgerClean();
  });

  it('balances per currency and the exchange tab show USD', async () => {
    const bal = await h.call('user/balances', {}, member);
    const currencies = bal.body.data.map((b: { currency: string }) => b.currency);
    expect(currencies.slice(0, 2)).toEqual(['TWD', 'USD']);
    const usd = bal.body.data.find((b: { currency: string }) => b.currency === 'USD');
    expect(usd.availableMinor).toBe((await memberBalances(h.database.db, memberId, 'USD')).available);
    const rec = await h.call('user/fundRecords', { tab: 'exchange', page: 1, pageSize: 200 }, member);
    expect(rec.body.data.deposits).toEqual([]);
    expect(rec.body.data.withdrawals).toEqual([]);
    const rows = await h.database.db.select().from(exchanges).where(eq(exchanges.userId, memberId));
    expect(rec.body.data.exchanges).toHaveLength(rows.length);
    expect(rec.body.data.exchanges[0].id).toBe(Math.max(...rows.map((r) => r.id)));
    const types = new Set(rec.body.data.items.map((p: { type: string }) => p.type));
    expect([...types]).toEqual(['exchange']);
    // Every exchange shows both member legs, in the two currencies.
    expect(rec.body.data.items).toHaveLength(rows.length * 2);
    expect(rec.body.data.items.some((p: { currency: string }) => p.currency === 'USD')).toBe(true);
    // Page 2 carries postings only.
    const p2 = await h.call('user/fundRecords', { tab: 'exchange', page: 2, pageSize: 2 }, member);
    expect(p2.body.data.exchanges).toEqual([]);
    expect(p2.body.data.items).toHaveLength(2);
  });
});

describe('idempotency of user/exchange', () => {
  it('same key and body → the first answer, exchanged once; other body → keyMismatch; no key → 400', async () => {
    const body = { from: 'TWD', to: 'USD', amountMinor: 50_000 };
    const headers = idem();
    const first = await h.call('user/exchange', body, member, headers);
    expect(first.body.status).toBe(1);
    const state = await h.moneyState();
    expect(await h.call('user/exchange', body, member, headers)).toEqual(first);
    expect(await h.moneyState()).toEqual(state);
    const other = await h.call('user/exchange', { ...body, amountMinor: 50_001 }, member, headers);
    expect([other.http, other.body.msg]).toEqual([422, 'keyMismatch']);
    const none = await h.call('user/exchange', body, member);
    expect([none.http, none.body.msg]).toEqual([400, 'idempotencyKeyRequired']);
    expect(await h.moneyState()).toEqual(state);
    await ledgerClean();
  });
});
