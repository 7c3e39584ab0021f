/**
 * A replayed market is a practice venue (docs/adr/0003-practice-venue-withdrawals.md): its future
 * is public (each real day's O/H/L/C is in the repository), so gains made on it are not earned
 * money. While MARKET_SOURCE is `replay` a member withdraws at most their **net deposits**, their
 * own money back, unless the operator opts in with REPLAY_WITHDRAWALS=all (config.ts).
 *
 * Net deposits, per currency (minor units of that currency), folded over the member's money
 * events in ledger order (ledger_transactions.id):
 * - a deposit approved: + amount in its currency;
 * - a withdrawal requested and not rejected (pending or paid): − amount, never below 0 (a
 *   withdrawal takes the member's own money first; with REPLAY_WITHDRAWALS=all it may take more);
 * - an exchange of `a` (from) into `b` (to): the part of `a` that was own money,
 *   m = min(a, net(from)), leaves `from`, and ⌊b × m ÷ a⌋ of `to` joins `to` (contract/money.ts
 *   mulDivFloor): own money keeps its nature through an exchange, gains stay gains.
 * A rejected withdrawal returned the money, so it is left out altogether. Credit-loan principal,
 * dividends, rebates and cash points codes are not deposits: they are never own money here.
 *
 * Concurrency: the withdrawal request and the exchange lock the member's users row
 * (`lockMemberFunds`) before they read the net deposits and write their own event, so one
 * member's withdrawals and exchanges are decided one after the other and the fold's order is the
 * order they were decided in. A deposit approval or a withdrawal's rejection only raises net
 * deposits, so they need no lock. Two withdrawal requests also meet the one-pending index.
 */
import { eq, sql } from 'drizzle-orm';
import type { WithdrawableInfo, WithdrawalRule } from '../../../contract/funds';
import { mulDivFloor } from '../../../contract/money';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { fail } from '../common/errors';
import { memberBalances } from '../ledger/ledger';
import { lockedAvailable } from '../trading/fills';

/** Withdrawals are paid in TWD (withdrawals.ts). */
const WITHDRAW_CURRENCY = 'TWD';

/** The rule in force: `netDeposits` on a replayed market unless REPLAY_WITHDRAWALS=all. */
export function withdrawalRule(config: Pick<Config, 'marketSource' | 'replayWithdrawals'>): WithdrawalRule {
  return config.marketSource === 'replay' && config.replayWithdrawals !== 'all' ? 'netDeposits' : 'all';
}

/** One money event of a member, in ledger order (`seq`). Amounts in minor units of their currency. */
export type FundEvent =
  | { seq: number; kind: 'deposit'; currency: string; amountMinor: number }
  | { seq: number; kind: 'withdrawal'; currency: string; amountMinor: number }
  | {
      seq: number;
      kind: 'exchange';
      currency: string;
      amountMinor: number;
      toCurrency: string;
      toMinor: number;
    };

/** Net deposits per currency after `events` (module docstring); pure. Currencies at 0 included. */
export function foldNetDeposits(events: readonly FundEvent[]): Map<string, number> {
  const net = new Map<string, number>();
  const get = (c: string) => net.get(c) ?? 0;
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    if (e.kind === 'deposit') net.set(e.currency, get(e.currency) + e.amountMinor);
    else if (e.kind === 'withdrawal') net.set(e.currency, Math.max(0, get(e.currency) - e.amountMinor));
    else {
      const own = Math.min(e.amountMinor, get(e.currency));
      net.set(e.currency, get(e.currency) - own);
      const moved = own > 0 ? mulDivFloor(e.toMinor, own, e.amountMinor) : 0;
      net.set(e.toCurrency, get(e.toCurrency) + moved);
    }
  }
  return net;
}

type EventRow = {
  seq: string;
  kind: 'deposit' | 'withdrawal' | 'exchange';
  currency: string;
  amount: string;
  to_currency: string | null;
  to_amount: string | null;
};

/** The member's money events (module docstring), in ledger order. */
export async function fundEvents(db: Db | Tx, userId: number): Promise<FundEvent[]> {
  const res = await db.execute(sql`
    select t.id as seq, 'deposit' as kind, d.currency, d.amount_minor as amount,
      null::text as to_currency, null::bigint as to_amount
    from deposits d
    join ledger_transactions t on t.ref_type = 'deposit' and t.ref_id = d.id::text and t.type = 'deposit'
    where d.user_id = ${userId} and d.status = 'approved'
    union all
    select t.id, 'withdrawal', w.currency, w.amount_minor, null::text, null::bigint
    from withdrawals w
    join ledger_transactions t on t.ref_type = 'withdrawal' and t.ref_id = w.id::text and t.type = 'withdrawal'
    where w.user_id = ${userId} and w.status <> 'rejected'
    union all
    select t.id, 'exchange', e.from_currency, e.from_minor, e.to_currency, e.to_minor
    from exchanges e
    join ledger_transactions t on t.ref_type = 'exchange' and t.ref_id = e.id::text and t.type = 'exchange'
    where e.user_id = ${userId}
    order by 1`);
  const rows = ((res as { rows?: unknown[] }).rows ?? (res as unknown as unknown[])) as EventRow[];
  return rows.map((r): FundEvent => {
    const base = { seq: Number(r.seq), currency: r.currency, amountMinor: Number(r.amount) };
    return r.kind === 'exchange'
      ? { ...base, kind: 'exchange', toCurrency: r.to_currency!, toMinor: Number(r.to_amount) }
      : { ...base, kind: r.kind };
  });
}

/** The member's net deposits in `currency` now (minor, ≥ 0). */
export async function netDepositsOf(db: Db | Tx, userId: number, currency = WITHDRAW_CURRENCY) {
  return foldNetDeposits(await fundEvents(db, userId)).get(currency) ?? 0;
}

/**
 * Serialises one member's withdrawal requests and exchanges (module docstring). NO KEY UPDATE:
 * the request's idempotency_keys row holds a KEY SHARE lock on the same users row (its foreign
 * key), which a plain UPDATE lock would wait on.
 */
export async function lockMemberFunds(tx: Tx, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}

/**
 * Inside the withdrawal request's transaction, before it writes anything: under `netDeposits`
 * locks the member's funds (`lockMemberFunds`) and refuses with `aboveNetDeposits` (422) a TWD
 * withdrawal of `amountMinor` above the member's net deposits while the cash is there; an amount
 * above the available cash is left to the ledger's `insufficientBalance` (the more basic answer).
 * The available row is locked too (trading fills.ts lockedAvailable), so it cannot grow between
 * this check and the withdrawal's posting. Does nothing under `all`.
 */
export async function refuseAboveNetDeposits(
  tx: Tx,
  config: Pick<Config, 'marketSource' | 'replayWithdrawals'>,
  userId: number,
  amountMinor: number,
): Promise<void> {
  if (withdrawalRule(config) !== 'netDeposits') return;
  await lockMemberFunds(tx, userId);
  if (amountMinor > (await lockedAvailable(tx, userId))) return;
  if (amountMinor > (await netDepositsOf(tx, userId))) throw fail('aboveNetDeposits');
}

/**
 * Inside an exchange's transaction, before it writes anything: under `netDeposits` locks the
 * member's funds, so the exchange and a withdrawal request are decided one after the other.
 */
export async function serialiseWithWithdrawals(
  tx: Tx,
  config: Pick<Config, 'marketSource' | 'replayWithdrawals'>,
  userId: number,
): Promise<void> {
  if (withdrawalRule(config) === 'netDeposits') await lockMemberFunds(tx, userId);
}

/** user/withdrawable: the member's available TWD, net deposits and what may be withdrawn now. */
export async function withdrawableOf(
  db: Db | Tx,
  config: Pick<Config, 'marketSource' | 'replayWithdrawals'>,
  userId: number,
): Promise<WithdrawableInfo> {
  const rule = withdrawalRule(config);
  const { available } = await memberBalances(db, userId, WITHDRAW_CURRENCY);
  const net = await netDepositsOf(db, userId);
  const availableMinor = Math.max(0, available);
  return {
    currency: WITHDRAW_CURRENCY,
    rule,
    practice: config.marketSource === 'replay',
    availableMinor,
    netDepositsMinor: net,
    withdrawableMinor: rule === 'netDeposits' ? Math.min(availableMinor, net) : availableMinor,
  };
}
