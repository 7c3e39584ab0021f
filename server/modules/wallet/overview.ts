/**
 * The asset overview (contract/wallet.ts): a member's ledger balances per currency and kind, the
 * open positions marked to the feed, and the TWD value at the operator's exchange rates. One
 * function (`summarise`) computes it from rows, so the overview screen (wallet/overview), the
 * member centre's total (user/info) and the daily snapshots (snapshots.ts) never disagree.
 *
 * Balances are read generically from every member ledger account (ledger.ts): the four standard
 * purposes (available, frozen, margin, debt) have their own fields, any other purpose (the
 * copy-trading `follow` account) is listed in `otherAccounts` with its balance as the ledger holds
 * it (positive = the platform owes the member) and counted in the total.
 *
 * Debt: a credit loan pays its principal into `available` and the member owes it back (principal
 * and accrued interest, credit_loans; the ledger's side is the platform's loan_receivable), so
 * the TWD row's debt is the ledger `debt` balance (a loss beyond the member's funds) minus what
 * the member's lending loans still owe. So total per currency = Σ of the member's ledger balances
 * in it + unrealised P&L (TWD positions only) − credit owed (TWD): the member's net assets;
 * `assetsTwdMinor` is it before debt, `debtTwdMinor` the debt.
 *
 * Marks: an open (`holding`) position is marked to the feed's last price (its opening price when
 * the feed has no quote: unrealised 0), as the member centre always did.
 */
import { and, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { CURRENCIES } from '../../../contract/constants';
import type { FxRate } from '../../../contract/funds';
import { unrealisedPnlMinor } from '../../../contract/market-rules';
import { convertMinorFloor, notionalMinor } from '../../../contract/money';
import type { AssetOverview, CurrencyAssets } from '../../../contract/wallet';
import type { Db, Tx } from '../../db/client';
import { creditLoans, ledgerAccounts, orders, users } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';
import { rateSource } from '../fx/rate-source';

/** One member ledger account's balance (minor units of `currency`). */
export interface BalanceRow {
  userId: number;
  currency: string;
  purpose: string;
  balance: number;
}

/** One open position: side, open value (Σ fill price × shares, TWD minor), shares, margin held (TWD minor). */
export interface HoldingRow {
  userId: number;
  symbol: string;
  side: 'long' | 'short';
  openValue: number | null;
  shares: number;
  margin: number;
}

/** The last price of a symbol (TWD minor per share), or null without a quote. */
export type Mark = (symbol: string) => number | null;

const order = (c: string) => {
  const i = (CURRENCIES as readonly string[]).indexOf(c);
  return i < 0 ? CURRENCIES.length : i;
};

/** `amount` with the sign kept and the conversion applied to its absolute value (toward zero). */
const signed = (amount: number, f: (abs: number) => number) => (amount < 0 ? 0 - f(-amount) : f(amount));

/**
 * `amountMinor` of `currency` in TWD minor at the exchange rates (see contract/wallet.ts
 * valuationRateSchema), or null when a rate it needs is missing.
 */
export function valueInTwd(amountMinor: number, currency: string, rates: ReadonlyMap<string, FxRate>) {
  if (currency === 'TWD') return amountMinor;
  const twd = rates.get('TWD');
  if (!twd) return null;
  const fromUsd = (usd: number) => convertMinorFloor(usd, twd.buyPpm, 'fromUsd');
  if (currency === 'USD') return signed(amountMinor, fromUsd);
  const r = rates.get(currency);
  if (!r) return null;
  return signed(amountMinor, (abs) => fromUsd(convertMinorFloor(abs, r.sellPpm, 'toUsd')));
}

/** What summarise needs besides the ledger rows: credit owed (TWD minor, ≥ 0), practice flag. */
export interface OverviewExtras {
  creditOwedMinor?: number;
  practice?: boolean;
}

/** The overview of one member from their rows (see the module docstring). `asOf`: epoch ms. */
export function summarise(
  balances: readonly BalanceRow[],
  holdings: readonly HoldingRow[],
  mark: Mark,
  rates: ReadonlyMap<string, FxRate>,
  asOf: number,
  extras: OverviewExtras = {},
): AssetOverview {
  const by = new Map<string, CurrencyAssets>();
  const row = (currency: string) => {
    let r = by.get(currency);
    if (!r) {
      r = {
        currency,
        availableMinor: 0,
        frozenMinor: 0,
        marginMinor: 0,
        debtMinor: 0,
        otherAccounts: [],
        unrealisedMinor: 0,
        totalMinor: 0,
        valueTwdMinor: null,
      };
      by.set(currency, r);
    }
    return r;
  };
  row('TWD');
  for (const b of balances) {
    const r = row(b.currency);
    if (b.purpose === 'available') r.availableMinor += b.balance;
    else if (b.purpose === 'frozen') r.frozenMinor += b.balance;
    else if (b.purpose === 'margin') r.marginMinor += b.balance;
    else if (b.purpose === 'debt') r.debtMinor += b.balance;
    else r.otherAccounts.push({ purpose: b.purpose, balanceMinor: b.balance });
    r.totalMinor += b.balance;
  }
  const positions = { count: 0, marketValueMinor: 0, marginMinor: 0, unrealisedMinor: 0 };
  for (const h of holdings) {
    const last = mark(h.symbol);
    positions.count++;
    // Without a mark the position is valued at cost (no unrealised P&L).
    positions.marketValueMinor += last !== null ? notionalMinor(last, h.shares) : (h.openValue ?? 0);
    positions.marginMinor += h.margin;
    if (last !== null && h.openValue !== null)
      positions.unrealisedMinor += unrealisedPnlMinor(h.side, h.openValue, last, h.shares);
  }
  const twd = row('TWD');
  twd.unrealisedMinor = positions.unrealisedMinor;
  twd.totalMinor += positions.unrealisedMinor;
  const owed = extras.creditOwedMinor ?? 0;
  twd.debtMinor -= owed;
  twd.totalMinor -= owed;

  const currencies = [...by.values()].sort((a, b) => order(a.currency) - order(b.currency));
  const unvalued: string[] = [];
  let totalTwdMinor = 0;
  let debtTwdMinor = 0;
  for (const c of currencies) {
    c.otherAccounts.sort((a, b) => a.purpose.localeCompare(b.purpose));
    c.valueTwdMinor = valueInTwd(c.totalMinor, c.currency, rates);
    if (c.valueTwdMinor === null) unvalued.push(c.currency);
    else {
      totalTwdMinor += c.valueTwdMinor;
      debtTwdMinor -= valueInTwd(c.debtMinor, c.currency, rates) ?? 0;
    }
  }
  const used: AssetOverview['rates'] = [];
  const twdRate = rates.get('TWD');
  if (twdRate && currencies.some((c) => c.currency !== 'TWD'))
    used.push({
      currency: 'TWD',
      ratePpm: twdRate.buyPpm,
      side: 'buy',
      source: twdRate.source,
      asOf: twdRate.asOf,
    });
  for (const c of currencies) {
    const r = rates.get(c.currency);
    if (twdRate && r && c.currency !== 'TWD' && c.currency !== 'USD')
      used.push({ currency: c.currency, ratePpm: r.sellPpm, side: 'sell', source: r.source, asOf: r.asOf });
  }
  return {
    currencies,
    positions,
    totalTwdMinor,
    assetsTwdMinor: totalTwdMinor + debtTwdMinor,
    debtTwdMinor,
    practice: extras.practice ?? false,
    unvalued,
    rates: used,
    asOf,
  };
}

/** The operator's exchange rates by currency (server/modules/fx). */
export async function valuationRates(db: Db | Tx): Promise<Map<string, FxRate>> {
  return new Map((await rateSource(db).list()).map((r) => [r.currency, r]));
}

/** The feed's last price as a Mark. */
export const feedMark =
  (feed: Pick<MarketFeed, 'quote'>): Mark =>
  (symbol) =>
    feed.quote(symbol)?.lastMinor ?? null;

/** Member ledger balances (all members when `userId` is null; members only, not operators). */
export async function balanceRows(db: Db | Tx, userId: number | null): Promise<BalanceRow[]> {
  const where: SQL | undefined =
    userId === null ? eq(users.role, 'member') : eq(ledgerAccounts.userId, userId);
  const rows = await db
    .select({
      userId: ledgerAccounts.userId,
      currency: ledgerAccounts.currency,
      purpose: ledgerAccounts.purpose,
      balance: ledgerAccounts.balanceMinor,
    })
    .from(ledgerAccounts)
    .innerJoin(users, eq(users.id, ledgerAccounts.userId))
    .where(and(isNotNull(ledgerAccounts.userId), where));
  return rows.map((r) => ({ ...r, userId: r.userId! }));
}

/** Open positions (`holding`) of one member, or of everyone when `userId` is null. */
export async function holdingRows(db: Db | Tx, userId: number | null): Promise<HoldingRow[]> {
  const rows = await db
    .select({
      userId: orders.userId,
      symbol: orders.symbol,
      side: orders.side,
      openValue: orders.openValueMinor,
      shares: orders.shares,
      margin: orders.marginMinor,
    })
    .from(orders)
    .where(and(inArray(orders.status, ['holding']), userId === null ? undefined : eq(orders.userId, userId)));
  return rows as HoldingRow[];
}

/**
 * What each member's lending credit loans still owe (principal − repaid + accrued − paid interest,
 * TWD minor, credit/loans.ts), of one member or of everyone when `userId` is null.
 */
export async function creditOwed(db: Db | Tx, userId: number | null): Promise<Map<number, number>> {
  const rows = await db
    .select({
      userId: creditLoans.userId,
      owed: sql<string>`coalesce(sum(${creditLoans.principalMinor} - ${creditLoans.principalRepaidMinor}
        + ${creditLoans.interestAccruedMinor} - ${creditLoans.interestPaidMinor}), 0)`,
    })
    .from(creditLoans)
    .where(
      and(eq(creditLoans.status, 'lending'), userId === null ? undefined : eq(creditLoans.userId, userId)),
    )
    .groupBy(creditLoans.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.owed)]));
}

/**
 * The asset overview of member `userId` now: ledger balances, positions marked to `feed`, credit
 * owed, rates from the fx table; `practice` while the market is a replay. `now`: epoch ms. Reads
 * only.
 */
export async function memberOverview(
  db: Db | Tx,
  feed: Pick<MarketFeed, 'quote'>,
  userId: number,
  now: number,
  practice = false,
): Promise<AssetOverview> {
  const balances = await balanceRows(db, userId);
  const holdings = await holdingRows(db, userId);
  const owed = (await creditOwed(db, userId)).get(userId) ?? 0;
  return summarise(balances, holdings, feedMark(feed), await valuationRates(db), now, {
    creditOwedMinor: owed,
    practice,
  });
}
