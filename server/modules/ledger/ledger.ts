/**
 * Double-entry ledger. Every movement of money is `post(tx, …)`: one ledger transaction whose
 * postings sum to zero per currency, written inside the caller's database transaction together
 * with the business change it belongs to.
 *
 * Accounts are keyed by (user or platform, currency, purpose). Member purposes: `available`,
 * `frozen` (reserved for pending orders), `margin` (held by open positions), `debt` (what a member
 * owes after a loss beyond their funds; may go negative). Platform purposes: `bank_clearing`
 * (money received from / paid to banks), `fee_revenue`, `tax_payable`, `trading_pnl` (the
 * platform as counterparty of the simulated venue), `fx_conversion` (the platform's side of
 * currency exchanges: one account per currency, so an exchange balances per currency). Signs: a
 * positive posting raises the account's balance; member balances are what the platform owes the
 * member.
 *
 * Accounts: the platform has one account per purpose in every wallet currency (CURRENCIES),
 * created at start-up (`ensurePlatformAccounts`); a member's accounts in a currency are created
 * on demand (`ensureMemberAccounts(tx, userId, currency)`) before the first posting to them (TWD
 * at registration, other currencies on a deposit in that currency or an exchange into it).
 *
 * Safety: accounts are locked `FOR UPDATE` in ascending id order (no deadlocks between two
 * posters), balances are checked before the update and again by a CHECK constraint, and a
 * refusal throws AppError('insufficientBalance') so the whole DB transaction rolls back.
 */
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { CURRENCIES } from '../../../contract/constants';
import type { FundFlowType } from '../../../contract/funds';
import type { Db, Tx } from '../../db/client';
import { ledgerAccounts, ledgerPostings, ledgerTransactions } from '../../db/schema';
import { fail } from '../../http/errors';

export const MEMBER_PURPOSES = ['available', 'frozen', 'margin', 'debt'] as const;
export type MemberPurpose = (typeof MEMBER_PURPOSES)[number];
export const PLATFORM_PURPOSES = [
  'bank_clearing',
  'fee_revenue',
  'tax_payable',
  'trading_pnl',
  'fx_conversion',
] as const;
export type PlatformPurpose = (typeof PLATFORM_PURPOSES)[number];

export type AccountRef =
  | { userId: number; purpose: MemberPurpose; currency?: string }
  | { platform: PlatformPurpose; currency?: string };

/** One leg of a ledger transaction. */
export interface PostingInput {
  account: AccountRef;
  /** Signed minor units: positive raises the account's balance. */
  amountMinor: number;
}

/** A ledger transaction to write: its fund-flow type, business reference, optional idempotency key and legs. */
export interface PostInput {
  type: FundFlowType;
  refType?: string;
  refId?: string | number;
  idempotencyKey?: string;
  actorUserId?: number;
  memo?: string;
  postings: PostingInput[];
}

const DEFAULT_CURRENCY = 'TWD';

/**
 * Creates the member's ledger accounts in `currency` (idempotent; reads first, so an existing set
 * costs one select). Call when the user is created (TWD) and, inside the posting transaction,
 * before the first posting in another currency: a refused operation then rolls the new accounts
 * back with everything else.
 */
export async function ensureMemberAccounts(
  tx: Db | Tx,
  userId: number,
  currency = DEFAULT_CURRENCY,
): Promise<void> {
  const have = await tx
    .select({ purpose: ledgerAccounts.purpose })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.currency, currency)));
  if (have.length === MEMBER_PURPOSES.length) return;
  await tx
    .insert(ledgerAccounts)
    .values(
      MEMBER_PURPOSES.map((purpose) => ({ userId, currency, purpose, allowNegative: purpose === 'debt' })),
    )
    .onConflictDoNothing();
}

/**
 * Creates the platform's ledger accounts (idempotent): every purpose in each of `currencies`
 * (default: every wallet currency, contract/constants.ts CURRENCIES). Call at start-up.
 */
export async function ensurePlatformAccounts(
  db: Db,
  currencies: string | readonly string[] = CURRENCIES,
): Promise<void> {
  const list = typeof currencies === 'string' ? [currencies] : currencies;
  await db
    .insert(ledgerAccounts)
    .values(
      list.flatMap((currency) =>
        PLATFORM_PURPOSES.map((purpose) => ({ userId: null, currency, purpose, allowNegative: true })),
      ),
    )
    .onConflictDoNothing();
}

/** The account a reference names: its owner (null for the platform), purpose and currency. */
function refKey(ref: AccountRef): string {
  const currency = ref.currency ?? DEFAULT_CURRENCY;
  return 'platform' in ref ? `p|${ref.platform}|${currency}` : `u${ref.userId}|${ref.purpose}|${currency}`;
}

/**
 * Finds and locks (`FOR UPDATE`, ascending id: two posters never deadlock) every account the
 * references name, in one statement. Returns the ids in reference order and the locked rows.
 * @throws Error when an account does not exist (a programming error: create accounts first).
 */
async function lockAccounts(tx: Tx, refs: AccountRef[]) {
  const conds = [...new Map(refs.map((ref) => [refKey(ref), ref])).values()].map((ref) => {
    const currency = ref.currency ?? DEFAULT_CURRENCY;
    return 'platform' in ref
      ? and(
          isNull(ledgerAccounts.userId),
          eq(ledgerAccounts.purpose, ref.platform),
          eq(ledgerAccounts.currency, currency),
        )
      : and(
          eq(ledgerAccounts.userId, ref.userId),
          eq(ledgerAccounts.purpose, ref.purpose),
          eq(ledgerAccounts.currency, currency),
        );
  });
  const rows = conds.length
    ? await tx
        .select({
          id: ledgerAccounts.id,
          userId: ledgerAccounts.userId,
          purpose: ledgerAccounts.purpose,
          currency: ledgerAccounts.currency,
          balance: ledgerAccounts.balanceMinor,
          allowNegative: ledgerAccounts.allowNegative,
        })
        .from(ledgerAccounts)
        .where(or(...conds))
        .orderBy(asc(ledgerAccounts.id))
        .for('update')
    : [];
  const byKey = new Map(
    rows.map((r) => [
      r.userId === null ? `p|${r.purpose}|${r.currency}` : `u${r.userId}|${r.purpose}|${r.currency}`,
      r.id,
    ]),
  );
  const ids = refs.map((ref) => {
    const id = byKey.get(refKey(ref));
    if (id === undefined) throw new Error(`ledger account missing: ${JSON.stringify(ref)}`);
    return id;
  });
  return { ids, locked: rows };
}

/**
 * Writes one balanced ledger transaction. Returns its id, or the id of the earlier transaction
 * with the same idempotency key (then nothing is posted again).
 * @throws AppError('insufficientBalance') when a non-negative account would go below zero.
 * @throws Error when postings do not sum to zero per currency (a programming error).
 */
export async function post(tx: Tx, input: PostInput): Promise<number> {
  const postings = input.postings.filter((p) => p.amountMinor !== 0);
  const sums = new Map<string, number>();
  for (const p of postings) {
    if (!Number.isSafeInteger(p.amountMinor))
      throw new Error(`posting amount not a safe integer: ${p.amountMinor}`);
    const cur = p.account.currency ?? DEFAULT_CURRENCY;
    sums.set(cur, (sums.get(cur) ?? 0) + p.amountMinor);
  }
  for (const [cur, sum] of sums)
    if (sum !== 0) throw new Error(`unbalanced ledger transaction (${cur} ${sum})`);

  if (input.idempotencyKey) {
    const prior = await tx
      .select({ id: ledgerTransactions.id })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, input.idempotencyKey))
      .limit(1);
    if (prior[0]) return prior[0].id;
  }

  // Find and lock every touched account (one statement), then check the non-negative rule.
  const { ids, locked } = await lockAccounts(
    tx,
    postings.map((p) => p.account),
  );
  const delta = new Map<number, number>();
  ids.forEach((id, i) => delta.set(id, (delta.get(id) ?? 0) + postings[i]!.amountMinor));
  for (const acc of locked) {
    if (!acc.allowNegative && acc.balance + (delta.get(acc.id) ?? 0) < 0) throw fail('insufficientBalance');
  }

  const [txRow] = await tx
    .insert(ledgerTransactions)
    .values({
      type: input.type,
      refType: input.refType ?? null,
      refId: input.refId === undefined ? null : String(input.refId),
      idempotencyKey: input.idempotencyKey ?? null,
      actorUserId: input.actorUserId ?? null,
      memo: input.memo ?? null,
    })
    .returning({ id: ledgerTransactions.id });
  const txId = txRow!.id;
  if (postings.length) {
    await tx.insert(ledgerPostings).values(
      postings.map((p, i) => ({
        transactionId: txId,
        accountId: ids[i]!,
        amountMinor: p.amountMinor,
        currency: p.account.currency ?? DEFAULT_CURRENCY,
      })),
    );
  }
  // Every balance in one statement: UPDATE … FROM (VALUES (id, delta), …).
  const changes = [...delta].filter(([, d]) => d !== 0);
  if (changes.length) {
    const values = sql.join(
      changes.map(([id, d]) => sql`(${id}::int, ${d}::bigint)`),
      sql`, `,
    );
    await tx.execute(sql`
      update ${ledgerAccounts} set balance_minor = ${ledgerAccounts}.balance_minor + v.d
      from (values ${values}) as v(id, d) where ${ledgerAccounts}.id = v.id`);
  }
  return txId;
}

/** Shorthand for the common two-legged move of `amountMinor` from one account to another. */
export function move(from: AccountRef, to: AccountRef, amountMinor: number): PostingInput[] {
  return [
    { account: from, amountMinor: -amountMinor },
    { account: to, amountMinor },
  ];
}

/** Member balances by purpose (minor units), read from the cached balances. */
export async function memberBalances(db: Db | Tx, userId: number, currency = DEFAULT_CURRENCY) {
  const rows = await db
    .select({ purpose: ledgerAccounts.purpose, balance: ledgerAccounts.balanceMinor })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.currency, currency)));
  const out: Record<MemberPurpose, number> = { available: 0, frozen: 0, margin: 0, debt: 0 };
  for (const r of rows) out[r.purpose as MemberPurpose] = r.balance;
  return out;
}

/** The reconciliation report (all lists empty when the ledger is clean). */
export interface ReconcileResult {
  accounts: number;
  transactions: number;
  /** Accounts whose cached balance differs from SUM(postings). */
  balanceDifferences: Array<{ accountId: number; cached: number; fromPostings: number }>;
  /** Transactions whose postings do not sum to zero per currency. */
  unbalancedTransactions: Array<{ transactionId: number; currency: string; sum: number }>;
  /** Non-negative accounts below zero. */
  negativeBalances: Array<{ accountId: number; balance: number }>;
}

/** Recomputes every balance from the postings and reports every difference (empty lists = clean). */
export async function reconcile(db: Db): Promise<ReconcileResult> {
  const diffs = await db.execute<{ account_id: number; cached: string; from_postings: string }>(sql`
    select a.id as account_id, a.balance_minor as cached, coalesce(sum(p.amount_minor), 0) as from_postings
    from ledger_accounts a left join ledger_postings p on p.account_id = a.id
    group by a.id, a.balance_minor
    having a.balance_minor <> coalesce(sum(p.amount_minor), 0)`);
  const unbalanced = await db.execute<{ transaction_id: number; currency: string; sum: string }>(sql`
    select transaction_id, currency, sum(amount_minor) as sum from ledger_postings
    group by transaction_id, currency having sum(amount_minor) <> 0`);
  const negative = await db.execute<{ id: number; balance_minor: string }>(sql`
    select id, balance_minor from ledger_accounts where not allow_negative and balance_minor < 0`);
  const counts = await db.execute<{ accounts: string; transactions: string }>(sql`
    select (select count(*) from ledger_accounts) as accounts, (select count(*) from ledger_transactions) as transactions`);
  const rows = <T>(r: unknown): T[] => (r as { rows?: T[] }).rows ?? (r as T[]);
  const c = rows<{ accounts: string; transactions: string }>(counts)[0]!;
  return {
    accounts: Number(c.accounts),
    transactions: Number(c.transactions),
    balanceDifferences: rows<{ account_id: number; cached: string; from_postings: string }>(diffs).map(
      (r) => ({
        accountId: Number(r.account_id),
        cached: Number(r.cached),
        fromPostings: Number(r.from_postings),
      }),
    ),
    unbalancedTransactions: rows<{ transaction_id: number; currency: string; sum: string }>(unbalanced).map(
      (r) => ({
        transactionId: Number(r.transaction_id),
        currency: r.currency,
        sum: Number(r.sum),
      }),
    ),
    negativeBalances: rows<{ id: number; balance_minor: string }>(negative).map((r) => ({
      accountId: Number(r.id),
      balance: Number(r.balance_minor),
    })),
  };
}

/** True when the reconciliation found no difference of any kind. */
export const isClean = (r: ReconcileResult) =>
  r.balanceDifferences.length === 0 &&
  r.unbalancedTransactions.length === 0 &&
  r.negativeBalances.length === 0;
