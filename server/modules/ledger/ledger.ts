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
 * currency exchanges: one account per currency, so an exchange balances per currency),
 * `promotions` (what the platform gives away: cash points codes, docs/levels.md),
 * `loan_receivable` (credit loans' principal and accrued interest the members owe; negative, an
 * asset) and `interest_revenue` (credit loans' accrued interest; server/modules/credit). Signs: a
 * positive posting raises the account's balance; member balances are what the platform owes the
 * member.
 *
 * Accounts: the platform has PLATFORM_SLOTS accounts per purpose in every wallet currency (CURRENCIES),
 * created at start-up (`ensurePlatformAccounts`); a member's accounts in a currency are created
 * on demand (`ensureMemberAccounts(tx, userId, currency)`) before the first posting to them (TWD
 * at registration, other currencies on a deposit in that currency or an exchange into it).
 *
 * Platform accounts have PLATFORM_SLOTS rows (slots) per purpose and currency; a transaction uses
 * the slot of its member, so members do not queue on one platform row.
 *
 * Safety: accounts are locked `FOR UPDATE` in ascending id order (no deadlocks between two
 * posters), a balance that may not go negative is held at zero by a CHECK constraint, and a
 * refusal throws AppError('insufficientBalance') so the whole DB transaction rolls back. The
 * writing is the database function `ledger_post` (migration 0004, its writes trimmed in 0005): one round trip per batch.
 */
import { and, eq, inArray, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { CURRENCIES } from '../../../contract/constants';
import type { FundFlowType } from '../../../contract/funds';
import type { Db, Tx } from '../../db/client';
import { ledgerAccounts, ledgerTransactions } from '../../db/schema';
import { fail } from '../common/errors';
import { isCheckViolation } from '../common/db-errors';

export const MEMBER_PURPOSES = ['available', 'frozen', 'margin', 'debt'] as const;
export type MemberPurpose = (typeof MEMBER_PURPOSES)[number];
/**
 * Member sub-accounts created on first use, not with the member (ensureSubAccount): `follow`
 * holds the cash of the member's running follows (copy trading; each follow's share is its
 * follows.cash_minor, and the account's balance is their sum).
 */
export const SUB_ACCOUNT_PURPOSES = ['follow'] as const;
export type SubAccountPurpose = (typeof SUB_ACCOUNT_PURPOSES)[number];
export const PLATFORM_PURPOSES = [
  'bank_clearing',
  'fee_revenue',
  'tax_payable',
  'trading_pnl',
  'fx_conversion',
  'promotions',
  'loan_receivable',
  'interest_revenue',
] as const;
export type PlatformPurpose = (typeof PLATFORM_PURPOSES)[number];
/**
 * Rows per platform purpose and currency. Every order posts fee and tax to the platform; with one
 * row each, all members' order transactions queued on its row lock (271 orders/s on 2 cores).
 * A platform balance is the sum over its slots.
 */
export const PLATFORM_SLOTS = 16;

export type AccountRef =
  | { userId: number; purpose: MemberPurpose | SubAccountPurpose; currency?: string }
  | { platform: PlatformPurpose; currency?: string };

/** One leg of a ledger transaction. */
export interface PostingInput {
  account: AccountRef;
  /** Signed minor units: positive raises the account's balance. */
  amountMinor: number;
  /**
   * Minor units this account's balance must keep after the whole batch (e.g. an opening order's
   * reserve on `available`, trading fills.ts); below it the batch is refused like an overdraft
   * (insufficientBalance). Optional.
   */
  floorMinor?: number;
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
  if (
    have.filter((h) => (MEMBER_PURPOSES as readonly string[]).includes(h.purpose)).length ===
    MEMBER_PURPOSES.length
  )
    return;
  await tx
    .insert(ledgerAccounts)
    .values(
      MEMBER_PURPOSES.map((purpose) => ({ userId, currency, purpose, allowNegative: purpose === 'debt' })),
    )
    .onConflictDoNothing();
}

/**
 * Creates the member's `purpose` sub-account in `currency` (idempotent, never negative). Call in
 * the transaction of its first posting.
 */
export async function ensureSubAccount(
  tx: Db | Tx,
  userId: number,
  purpose: SubAccountPurpose,
  currency = DEFAULT_CURRENCY,
): Promise<void> {
  await tx
    .insert(ledgerAccounts)
    .values({ userId, currency, purpose, allowNegative: false })
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
        PLATFORM_PURPOSES.flatMap((purpose) =>
          Array.from({ length: PLATFORM_SLOTS }, (_, slot) => ({
            userId: null,
            currency,
            purpose,
            slot,
            allowNegative: true,
          })),
        ),
      ),
    )
    .onConflictDoNothing();
}

/**
 * The platform slot a transaction's platform legs use: its first member's id (else the actor's)
 * modulo PLATFORM_SLOTS. Transactions of different members then update different platform rows
 * and do not queue on one lock; one member's transactions always share a slot.
 */
function platformSlot(input: PostInput): number {
  const owner = input.postings.find((p) => 'userId' in p.account)?.account as { userId: number } | undefined;
  return (owner?.userId ?? input.actorUserId ?? 0) % PLATFORM_SLOTS;
}

/** Checks a transaction's legs (safe integers, zero sum per currency) and shapes it for ledger_post. */
function toBatchEntry(input: PostInput) {
  const legs = input.postings.filter((p) => p.amountMinor !== 0);
  const sums = new Map<string, number>();
  for (const p of legs) {
    if (!Number.isSafeInteger(p.amountMinor))
      throw new Error(`posting amount not a safe integer: ${p.amountMinor}`);
    const cur = p.account.currency ?? DEFAULT_CURRENCY;
    sums.set(cur, (sums.get(cur) ?? 0) + p.amountMinor);
  }
  for (const [cur, sum] of sums)
    if (sum !== 0) throw new Error(`unbalanced ledger transaction (${cur} ${sum})`);
  const slot = platformSlot(input);
  return {
    type: input.type,
    refType: input.refType ?? null,
    refId: input.refId === undefined ? null : String(input.refId),
    key: input.idempotencyKey ?? null,
    actor: input.actorUserId ?? null,
    memo: input.memo ?? null,
    legs: legs.map(({ account: a, amountMinor, floorMinor }) => ({
      u: 'platform' in a ? null : a.userId,
      p: 'platform' in a ? a.platform : a.purpose,
      c: a.currency ?? DEFAULT_CURRENCY,
      s: 'platform' in a ? slot : 0,
      a: amountMinor,
      ...(floorMinor ? { f: floorMinor } : {}),
    })),
  };
}

/**
 * `inputs` (balanced ledger transactions without idempotency keys: postAll handles those) as the
 * JSON batch the database function `ledger_post` takes (see postingsSql), for a statement that
 * binds it as a parameter.
 * @throws Error when postings do not sum to zero per currency, an amount is not a safe integer or
 *   an input has an idempotency key (programming errors).
 */
export function ledgerBatch(inputs: PostInput[]): string {
  const entries = inputs.map(toBatchEntry);
  if (entries.some((e) => e.key)) throw new Error('ledgerBatch: idempotency keys go through postAll');
  return JSON.stringify(entries);
}

/**
 * The SQL expression `ledger_post(batch, refId)` that writes a ledgerBatch (all or none) when a
 * statement evaluates it: the database function (migrations 0004 and 0005) locks every touched
 * account in id order (concurrent posters never deadlock), inserts the transactions and postings
 * and moves each balance by its net amount; an account that may not go negative and would is
 * refused by the table's CHECK constraint, which fails the statement and with it the batch. It
 * evaluates to the new transaction ids in input order. A transaction without refId takes
 * `refId`, so one statement can insert a row and post for it (trading fills.ts). `batch` is the
 * JSON text or a placeholder for it (a prepared statement). Map the refusal with `ledgerRefusal`.
 */
export function postingsSql(batch: string | Placeholder | SQL, refId?: SQL): SQL {
  return sql`ledger_post(${batch}::jsonb, ${refId ?? sql`null`})`;
}

/**
 * AppError('insufficientBalance') when `err` is ledger_post's refusal (the balances' CHECK
 * constraint ledger_accounts_non_negative); otherwise `err` itself.
 */
export function ledgerRefusal(err: unknown): unknown {
  return isCheckViolation(err, 'ledger_accounts_non_negative') ? fail('insufficientBalance') : err;
}

/**
 * Writes balanced ledger transactions, all or none, in one round trip (see postingsSql). A
 * transaction with an idempotency key that was already written is not posted again: its earlier
 * id is returned in its place. Returns the transaction ids in input order.
 * @throws AppError('insufficientBalance') when a non-negative account would go below zero
 *   (nothing of the batch is written; on PostgreSQL the surrounding transaction is aborted, so let
 *   it roll back).
 * @throws Error when postings do not sum to zero per currency, an amount is not a safe integer
 *   or an account does not exist (programming errors).
 */
export async function postAll(tx: Tx, inputs: PostInput[]): Promise<number[]> {
  const out: Array<number | undefined> = new Array(inputs.length);
  const keys = inputs.flatMap((e) => (e.idempotencyKey ? [e.idempotencyKey] : []));
  if (keys.length) {
    const prior = await tx
      .select({ id: ledgerTransactions.id, key: ledgerTransactions.idempotencyKey })
      .from(ledgerTransactions)
      .where(inArray(ledgerTransactions.idempotencyKey, keys));
    const byKey = new Map(prior.map((r) => [r.key, r.id]));
    inputs.forEach((e, i) => (out[i] = e.idempotencyKey ? byKey.get(e.idempotencyKey) : undefined));
  }
  const todo = inputs.filter((_, i) => out[i] === undefined);
  if (todo.length) {
    let res: unknown;
    try {
      res = await tx.execute(sql`select ${postingsSql(JSON.stringify(todo.map(toBatchEntry)))} as ids`);
    } catch (err) {
      throw ledgerRefusal(err);
    }
    const row = ((res as { rows?: unknown[] }).rows ?? (res as unknown[]))[0] as {
      ids: Array<number | string>;
    };
    let next = 0;
    for (let i = 0; i < out.length; i++) if (out[i] === undefined) out[i] = Number(row.ids[next++]);
  }
  return out as number[];
}

/**
 * Writes one balanced ledger transaction (postAll of one). Returns its id, or the id of the
 * earlier transaction with the same idempotency key (then nothing is posted again).
 * @throws AppError('insufficientBalance') when a non-negative account would go below zero.
 * @throws Error when postings do not sum to zero per currency (a programming error).
 */
export async function post(tx: Tx, input: PostInput): Promise<number> {
  return (await postAll(tx, [input]))[0]!;
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

/** A platform balance (minor units): the sum over the purpose's slots in `currency`. */
export async function platformBalance(db: Db | Tx, purpose: PlatformPurpose, currency = DEFAULT_CURRENCY) {
  const [row] = await db
    .select({ b: sql<string>`coalesce(sum(${ledgerAccounts.balanceMinor}), 0)` })
    .from(ledgerAccounts)
    .where(
      and(
        isNull(ledgerAccounts.userId),
        eq(ledgerAccounts.purpose, purpose),
        eq(ledgerAccounts.currency, currency),
      ),
    );
  return Number(row!.b);
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
