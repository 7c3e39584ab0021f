/**
 * user/balances (the member's ledger balances per currency) and user/statement (a CSV of every
 * posting to the member's ledger accounts between two dates; issue 4 "a statement export (CSV) for
 * any date range").
 *
 * The statement range is whole Asia/Taipei days, both ends inclusive: from 00:00 of `from` up to
 * (not including) 00:00 of the day after `to`; at most STATEMENT_MAX_DAYS days, else 400
 * parameterError. Rows are oldest first, columns: time (ISO 8601 with +08:00), transaction (ledger
 * transaction id), type (fund-flow type), account (available | frozen | margin | debt), currency,
 * amount (signed decimal string, contract/money.ts minorToDecimal), reference (e.g. withdrawal:12).
 * The CSV is written by csv-stringify (RFC 4180 quoting), so no field can break a column.
 */
import { stringify } from 'csv-stringify/sync';
import { DateTime } from 'luxon';
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import { CURRENCIES, STATEMENT_MAX_DAYS } from '../../../contract/constants';
import { minorToDecimal } from '../../../contract/money';
import { TWSE_ZONE } from '../../../contract/trading-session';
import { ledgerAccounts, ledgerPostings, ledgerTransactions } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';

/** Longest statement range in days (a leap year). */
/** Most rows one statement holds; a busier range must be split (400 parameterError). */
export const STATEMENT_MAX_ROWS = 100_000;

const COLUMNS = ['time', 'transaction', 'type', 'account', 'currency', 'amount', 'reference'];

const order = (c: string) => {
  const i = (CURRENCIES as readonly string[]).indexOf(c);
  return i < 0 ? CURRENCIES.length : i;
};

/** user/balances and user/statement. */
export const statementHandlers: Pick<Handlers, 'user/balances' | 'user/statement'> = {
  /** Every currency the member has ledger accounts in (TWD first, then CURRENCIES order). */
  async 'user/balances'(_body, ctx) {
    const user = requireUser(ctx);
    const rows = await ctx.db
      .select({
        currency: ledgerAccounts.currency,
        purpose: ledgerAccounts.purpose,
        balance: ledgerAccounts.balanceMinor,
      })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.userId, user.id));
    const by = new Map<
      string,
      { currency: string; availableMinor: number; frozenMinor: number; marginMinor: number }
    >();
    for (const r of rows) {
      const b = by.get(r.currency) ?? {
        currency: r.currency,
        availableMinor: 0,
        frozenMinor: 0,
        marginMinor: 0,
      };
      if (r.purpose === 'available') b.availableMinor = r.balance;
      else if (r.purpose === 'frozen') b.frozenMinor = r.balance;
      else if (r.purpose === 'margin') b.marginMinor = r.balance;
      by.set(r.currency, b);
    }
    return [...by.values()].sort((a, b) => order(a.currency) - order(b.currency));
  },

  async 'user/statement'(body, ctx) {
    const user = requireUser(ctx);
    const start = DateTime.fromISO(body.from, { zone: TWSE_ZONE });
    const last = DateTime.fromISO(body.to, { zone: TWSE_ZONE });
    if (!start.isValid || !last.isValid) throw fail('parameterError');
    const end = last.plus({ days: 1 });
    const days = Math.round(end.diff(start, 'days').days);
    if (days < 1 || days > STATEMENT_MAX_DAYS) throw fail('parameterError');
    const rows = await ctx.db
      .select({
        postingId: ledgerPostings.id,
        transactionId: ledgerPostings.transactionId,
        type: ledgerTransactions.type,
        account: ledgerAccounts.purpose,
        currency: ledgerPostings.currency,
        amountMinor: ledgerPostings.amountMinor,
        refType: ledgerTransactions.refType,
        refId: ledgerTransactions.refId,
        createdAt: ledgerTransactions.createdAt,
      })
      .from(ledgerPostings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerPostings.transactionId))
      .where(
        and(
          eq(ledgerAccounts.userId, user.id),
          gte(ledgerTransactions.createdAt, start.toJSDate()),
          lt(ledgerTransactions.createdAt, end.toJSDate()),
        ),
      )
      .orderBy(asc(ledgerTransactions.createdAt), asc(ledgerPostings.transactionId), asc(ledgerPostings.id))
      .limit(STATEMENT_MAX_ROWS + 1);
    if (rows.length > STATEMENT_MAX_ROWS) throw fail('parameterError');
    const csv = stringify(
      rows.map((r) => [
        DateTime.fromJSDate(r.createdAt, { zone: TWSE_ZONE }).toISO({ suppressMilliseconds: true }),
        String(r.transactionId),
        r.type,
        r.account,
        r.currency,
        minorToDecimal(r.amountMinor),
        r.refType && r.refId ? `${r.refType}:${r.refId}` : '',
      ]),
      { header: true, columns: COLUMNS },
    );
    return { filename: `statement-${body.from}-${body.to}.csv`, csv, rows: rows.length };
  },
};
