/**
 * Block trades (鉅額交易) and placements (配售): a member applies for lots of an operator's
 * offering, the amount is held, an operator approves (allocation: a long holding without margin,
 * no short or day trade) or rejects (released) it. Rules (docs/tw-market-rules.md "Block trades",
 * "Placements"; TWSE Block Trading Rules):
 * - block trade: at least 500 lots or NT$15,000,000 (blockTradeMinimum); the price within today's
 *   price limits of the stock (blockTradePrice), in whole TWD minor units (NT$0.01 ticks); the
 *   member's block-trade password (set like the funds password, argon2id, wrong tries counted and
 *   locked at FUNDS_PASSWORD_MAX_TRIES);
 * - placement: at the offering's fixed price, to members whose real name is verified
 *   (placementNotEligible);
 * - both: on the offering's days 09:00–14:30 market time (blockTradeClosed), no more lots than
 *   the offering has left over pending and approved applications (blockTradeMaximum; the offering
 *   row is locked, so concurrent applications never oversell it); the member's available row is
 *   locked before the hold, so they never overdraw.
 *
 * | when     | ledger (TWD minor), refType primaryApplication   | fund-flow type          |
 * |----------|---------------------------------------------------|-------------------------|
 * | apply    | available → frozen: price × lots × 1,000          | blockTrade / placement  |
 * | reject   | frozen → available: the same                      | blockTrade / placement  |
 * | approve  | frozen → margin: the same (the holding)           | stockPurchase (order)   |
 *
 * Review is four-eyes (server/modules/four-eyes/four-eyes.ts) and audited (primary.approve / reject).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { FUNDS_PASSWORD_MAX_TRIES } from '../../../contract/constants';
import {
  BLOCK_TRADE_CLOSE_MS,
  BLOCK_TRADE_OPEN_MS,
  SHARES_PER_LOT,
  meetsBlockTradeMinimum,
  type BlockTradePasswordState,
} from '../../../contract/primary';
import type { Db, Tx } from '../../db/client';
import { blockTradePasswords, primaryApplications, primaryOfferings } from '../../db/schema';
import { fail } from '../common/errors';
import { audit } from '../common/audit';
import { auditSelfReview } from '../four-eyes/four-eyes';
import { reviewer } from '../four-eyes/review';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { kycStatusesOf } from '../identity/kyc';
import { move, post } from '../ledger/ledger';
import { lockedAvailable, openPaidHolding } from '../trading/fills';
import type { IpoCalendar } from '../ipo/service';

export type PrimaryApplicationRow = typeof primaryApplications.$inferSelect;

const ref = (a: { id: number; userId: number }) =>
  ({ refType: 'primaryApplication', refId: a.id, actorUserId: a.userId }) as const;
const member = (userId: number, purpose: 'available' | 'frozen') => ({ userId, purpose }) as const;

// ---------- the block-trade password ----------

/** The member's block-trade password state: set, locked, wrong entries left before it locks. */
export async function blockTradePasswordState(db: Db, userId: number): Promise<BlockTradePasswordState> {
  const [row] = await db
    .select({ fails: blockTradePasswords.fails })
    .from(blockTradePasswords)
    .where(eq(blockTradePasswords.userId, userId));
  const fails = row?.fails ?? 0;
  return {
    set: Boolean(row),
    locked: fails >= FUNDS_PASSWORD_MAX_TRIES,
    triesLeft: Math.max(0, FUNDS_PASSWORD_MAX_TRIES - fails),
  };
}

/**
 * Sets the block-trade password (first time: `set`) or changes it (`oldPassword` checked first:
 * `changed`).
 * @throws AppError blockTradePasswordWrong | fundsPasswordLocked | operationFailed (set meanwhile)
 */
export async function setBlockTradePassword(
  db: Db,
  userId: number,
  password: string,
  oldPassword: string | undefined,
): Promise<'set' | 'changed'> {
  const [row] = await db.select().from(blockTradePasswords).where(eq(blockTradePasswords.userId, userId));
  if (row) {
    await verifyBlockTradePassword(db, userId, oldPassword ?? '');
    await db
      .update(blockTradePasswords)
      .set({ passwordHash: await hashPassword(password), fails: 0, updatedAt: new Date() })
      .where(eq(blockTradePasswords.userId, userId));
    return 'changed';
  }
  const inserted = await db
    .insert(blockTradePasswords)
    .values({ userId, passwordHash: await hashPassword(password) })
    .onConflictDoNothing()
    .returning({ userId: blockTradePasswords.userId });
  if (!inserted.length) throw fail('operationFailed');
  return 'set';
}

/**
 * Checks the block-trade password; a wrong one is counted (committed before the refusal is
 * thrown) and at FUNDS_PASSWORD_MAX_TRIES the password locks (fundsPasswordLocked, 403) until an
 * operator resets it.
 * @throws AppError blockTradePasswordNotSet | blockTradePasswordWrong | fundsPasswordLocked
 */
export async function verifyBlockTradePassword(db: Db, userId: number, password: string): Promise<void> {
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(blockTradePasswords)
      .where(eq(blockTradePasswords.userId, userId))
      .for('update');
    if (!row) return 'notSet' as const;
    if (row.fails >= FUNDS_PASSWORD_MAX_TRIES) return 'locked' as const;
    if (await verifyPassword(password, row.passwordHash)) {
      if (row.fails)
        await tx.update(blockTradePasswords).set({ fails: 0 }).where(eq(blockTradePasswords.userId, userId));
      return 'ok' as const;
    }
    await tx
      .update(blockTradePasswords)
      .set({ fails: sql`${blockTradePasswords.fails} + 1`, updatedAt: new Date() })
      .where(eq(blockTradePasswords.userId, userId));
    return row.fails + 1 >= FUNDS_PASSWORD_MAX_TRIES ? ('locked' as const) : ('wrong' as const);
  });
  if (outcome === 'notSet') throw fail('blockTradePasswordNotSet');
  if (outcome === 'locked') throw fail('fundsPasswordLocked');
  if (outcome === 'wrong') throw fail('blockTradePasswordWrong');
}

// ---------- applications ----------

/** Today's price limits of a stock (TWD minor), when the feed has its reference. */
export interface Limits {
  limitUpMinor: number;
  limitDownMinor: number;
}

/**
 * Applies for `lots` of a block-trade or placement offering and holds the amount, in one
 * transaction. The block-trade password is checked by the caller (verifyBlockTradePassword)
 * before this runs. `priceMinor` is ignored for a placement (the offering's price is used).
 * @throws AppError offeringNotFound | blockTradeClosed | blockTradeMinimum | blockTradePrice |
 *   blockTradeMaximum | placementNotEligible | insufficientBalance
 */
export async function applyPrimary(
  db: Db,
  input: {
    userId: number;
    offeringId: number;
    kind: 'blockTrade' | 'placement';
    priceMinor?: number;
    lots: number;
  },
  cal: IpoCalendar,
  limitsOf: (symbol: string) => Limits | null,
): Promise<PrimaryApplicationRow> {
  return db.transaction(async (tx) => {
    const [o] = await tx
      .select()
      .from(primaryOfferings)
      .where(eq(primaryOfferings.id, input.offeringId))
      .for('update');
    if (!o || o.kind !== input.kind) throw fail('offeringNotFound');
    const day = cal.today();
    const t = cal.timeOfDayMs?.() ?? null;
    if (
      o.stage !== 'scheduled' ||
      day < o.startDay ||
      day > o.endDay ||
      (t !== null && (t < BLOCK_TRADE_OPEN_MS || t >= BLOCK_TRADE_CLOSE_MS))
    )
      throw fail('blockTradeClosed');
    const priceMinor = o.kind === 'placement' ? o.priceMinor : input.priceMinor!;
    if (o.kind === 'blockTrade') {
      if (!meetsBlockTradeMinimum(priceMinor, input.lots)) throw fail('blockTradeMinimum');
      const limits = limitsOf(o.symbol);
      // A stock without a price history today trades around the offering's price (no limits known).
      if (limits && (priceMinor > limits.limitUpMinor || priceMinor < limits.limitDownMinor))
        throw fail('blockTradePrice');
    } else {
      const kyc = await kycStatusesOf(tx, [input.userId]);
      if (kyc.get(input.userId) !== 'verified') throw fail('placementNotEligible');
    }
    const [{ taken }] = (await tx
      .select({ taken: sql<number>`coalesce(sum(${primaryApplications.lots}), 0)::int` })
      .from(primaryApplications)
      .where(
        and(
          eq(primaryApplications.offeringId, o.id),
          inArray(primaryApplications.status, ['pendingReview', 'approved']),
        ),
      )) as [{ taken: number }];
    if (Number(taken) + input.lots > o.lots) throw fail('blockTradeMaximum');
    const amount = priceMinor * input.lots * SHARES_PER_LOT;
    if ((await lockedAvailable(tx, input.userId)) < amount) throw fail('insufficientBalance');
    const res = (await tx.execute(
      sql`select nextval(pg_get_serial_sequence('primary_applications', 'id'))::int as id`,
    )) as unknown as { rows?: Array<{ id: number }> } & Array<{ id: number }>;
    const id = Number((res.rows ?? res)[0]!.id);
    const prefix = o.kind === 'blockTrade' ? 'B' : 'P';
    const [a] = await tx
      .insert(primaryApplications)
      .values({
        id,
        applicationNo: `${prefix}${String(o.id).padStart(4, '0')}-${String(id).padStart(6, '0')}`,
        offeringId: o.id,
        userId: input.userId,
        priceMinor,
        lots: input.lots,
        amountMinor: amount,
      })
      .returning();
    await post(tx, {
      type: o.kind,
      ...ref(a!),
      postings: move(member(a!.userId, 'available'), member(a!.userId, 'frozen'), amount),
    });
    return a!;
  });
}

const primaryApplication = {
  table: primaryApplications,
  type: 'primaryApplication',
  pending: 'pendingReview',
  notPending: 'primaryNotPending',
} as const;
const reviewPrimaryApplication = reviewer(primaryApplication);

/**
 * The money side of a decision on application `a` (locked, not the operator's own): approve → a
 * long holding without margin at the application's price (trading fills.ts openPaidHolding:
 * frozen → margin); reject → the amount released. Answers the holding's order id to record.
 * @throws AppError primaryNotPending when `a` is no longer pending review
 */
async function settle(
  tx: Tx,
  a: PrimaryApplicationRow,
  decision: 'approved' | 'rejected',
  cal: IpoCalendar,
): Promise<{ columns: { orderId: number | null } }> {
  if (a.status !== 'pendingReview') throw fail('primaryNotPending');
  const [o] = await tx.select().from(primaryOfferings).where(eq(primaryOfferings.id, a.offeringId));
  if (decision === 'rejected') {
    await post(tx, {
      type: o!.kind === 'placement' ? 'placement' : 'blockTrade',
      ...ref(a),
      postings: move(member(a.userId, 'frozen'), member(a.userId, 'available'), a.amountMinor),
    });
    return { columns: { orderId: null } };
  }
  const order = await openPaidHolding(
    tx,
    { now: () => new Date(cal.now()) },
    {
      orderNo: a.applicationNo.replace('-', ''),
      userId: a.userId,
      symbol: o!.symbol,
      lots: a.lots,
      shares: a.lots * SHARES_PER_LOT,
      tradeDate: cal.label(cal.today()),
    },
    a.priceMinor,
  );
  return { columns: { orderId: order.id } };
}

/**
 * An operator's review of a pending application (`settle`): four eyes (never the operator's own
 * application, four-eyes/review.ts) and audited in the same transaction.
 * @throws AppError notFound | primaryNotPending | selfReview
 */
export async function reviewPrimary(
  db: Db,
  input: { id: number; operatorId: number; decision: 'approved' | 'rejected'; reason: string | null },
  cal: IpoCalendar,
): Promise<PrimaryApplicationRow> {
  return db
    .transaction(async (tx) => {
      const { before, after } = await reviewPrimaryApplication(tx, {
        id: input.id,
        operatorId: input.operatorId,
        status: input.decision,
        reason: input.reason,
        reviewedAt: new Date(cal.now()),
        prepare: (a) => settle(tx, a, input.decision, cal),
      });
      await audit(tx, {
        actorUserId: input.operatorId,
        action: input.decision === 'approved' ? 'primary.approve' : 'primary.reject',
        targetType: 'primaryApplication',
        targetId: before.id,
        before: { status: before.status },
        after: { status: after.status, orderId: after.orderId },
        reason: input.reason,
      });
      return after;
    })
    .catch(auditSelfReview(db, input.operatorId));
}
