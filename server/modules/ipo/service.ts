/**
 * Public subscription: applications and the market-clock steps of an offering (contract/ipo.ts
 * for the rules, schedule.ts for the days). Every money movement is a ledger transaction in the
 * same database transaction as the state change it belongs to (refType `ipoApplication`):
 *
 * | when                 | ledger (TWD minor)                                   | fund-flow type        |
 * |----------------------|------------------------------------------------------|-----------------------|
 * | apply / pay          | available → frozen: price × shares + 2,000 + 5,000   | subscriptionPayment   |
 * | deduction day        | frozen → fee_revenue: 2,000 (processing fee, kept)   | subscriptionPayment   |
 * | refund day, not won  | frozen → available: price × shares + 5,000           | subscriptionRefund    |
 * | refund day, won      | frozen → fee_revenue: 5,000 (notification fee)       | lottery               |
 * | listing day, won     | frozen → margin: price × shares (the holding)        | stockPurchase (order) |
 *
 * An application made without the amount available is accepted `unpaid` (as at a real broker,
 * where the bank account must hold the money on deduction day); the member may pay it until the
 * deduction step runs, which tries once more from `available` and otherwise marks it `waived`
 * (disqualified, never drawn).
 *
 * Steps (runDue): each is one transaction that locks the offering row, checks its `stage`, writes
 * its effects and moves the stage on; a crash rolls the step back whole and the next run repeats
 * it from the start, and a committed step is never run again (its stage has moved).
 */
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import {
  IPO_NOTIFICATION_FEE_MINOR,
  IPO_PROCESSING_FEE_MINOR,
  IPO_STEP_OFFSETS,
  drawWinners,
  ipoPayableMinor,
  type IpoStage,
} from '../../../contract/ipo';
import { notionalMinor } from '../../../contract/money';
import { yieldToEventLoop, type Db, type Tx } from '../../db/client';
import { ipoApplications, ipoDraws, ipoOfferings } from '../../db/schema';
import { fail } from '../common/errors';
import { isUniqueViolation } from '../common/db-errors';
import { move, post } from '../ledger/ledger';
import { lockedAvailable, openPaidHolding } from '../trading/fills';
import { notifyMember } from '../notices/notify';
import { verifiedIdNumberOf } from '../identity/kyc';

export type OfferingRow = typeof ipoOfferings.$inferSelect;
export type ApplicationRow = typeof ipoApplications.$inferSelect;

/** The calendar the module runs on: today's business day and the replayed date of any day. */
export interface IpoCalendar {
  today(): number;
  /** The replayed date (YYYY-MM-DD) the app shows for business day `day`. */
  label(day: number): string;
  /** Wall clock for timestamps (epoch ms). */
  now(): number;
  /** Market time of day (ms after local midnight), or null when the clock has none (stress feed). */
  timeOfDayMs?(): number | null;
}

const ref = (a: { id: number; userId: number }) =>
  ({ refType: 'ipoApplication', refId: a.id, actorUserId: a.userId }) as const;
const member = (userId: number, purpose: 'available' | 'frozen') => ({ userId, purpose }) as const;

/** Whether applications are taken on `day` (apply days 1–3 and the deduction not yet run). */
export function isOpen(o: Pick<OfferingRow, 'applyStartDay' | 'stage'>, day: number): boolean {
  return (
    o.stage === 'scheduled' && day >= o.applyStartDay && day <= o.applyStartDay + IPO_STEP_OFFSETS.lastApply
  );
}

/**
 * Applies `userId` to offering `offeringId` on business day `day`, inside the request's
 * transaction: with price × shares + NT$70 available it is held at once (`waitingDraw`), else the
 * application is `unpaid`. Only a member with a verified identity applies, and one application per
 * person and offering: per verified ID number whatever the account (docs/tw-market-rules.md
 * "Public subscription: who and how much", TSA underwriting rules Art. 53: a second application,
 * through any broker, is void), held by the unique indexes on (offering, member) and (offering,
 * ID number), so concurrent requests are covered too.
 * @throws AppError realNameNotCompleted | ipoNotFound | ipoNotOpen | ipoAlreadyApplied
 */
export async function apply(
  db: Db | Tx,
  userId: number,
  offeringId: number,
  day: number,
): Promise<ApplicationRow> {
  try {
    return await db.transaction(async (tx) => {
      const [o] = await tx.select().from(ipoOfferings).where(eq(ipoOfferings.id, offeringId)).for('share');
      if (!o) throw fail('ipoNotFound');
      if (!isOpen(o, day)) throw fail('ipoNotOpen');
      const idNumber = await verifiedIdNumberOf(tx, userId);
      if (idNumber === null) throw fail('realNameNotCompleted');
      const [prior] = await tx
        .select({ id: ipoApplications.id })
        .from(ipoApplications)
        .where(
          and(
            eq(ipoApplications.offeringId, o.id),
            or(eq(ipoApplications.userId, userId), eq(ipoApplications.idNumber, idNumber)),
          ),
        );
      if (prior) throw fail('ipoAlreadyApplied');
      const payable = ipoPayableMinor(o.priceMinor, o.sharesPerApplication);
      // Locks the member's available row: one member's applications run one after another.
      const paid = (await lockedAvailable(tx, userId)) >= payable;
      const nextId = await nextApplicationId(tx);
      const [a] = await tx
        .insert(ipoApplications)
        .values({
          id: nextId,
          applicationNo: applicationNo(o.id, nextId),
          offeringId: o.id,
          userId,
          idNumber,
          status: paid ? 'waitingDraw' : 'unpaid',
          shares: o.sharesPerApplication,
          priceMinor: o.priceMinor,
          payableMinor: payable,
          paidMinor: paid ? payable : 0,
        })
        .returning();
      if (paid) await hold(tx, a!);
      return a!;
    });
  } catch (err) {
    if (
      isUniqueViolation(err, 'ipo_applications_one_per_member_uq') ||
      isUniqueViolation(err, 'ipo_applications_one_per_id_uq')
    )
      throw fail('ipoAlreadyApplied');
    throw err;
  }
}

async function nextApplicationId(tx: Tx): Promise<number> {
  const res = (await tx.execute(
    sql`select nextval(pg_get_serial_sequence('ipo_applications', 'id'))::int as id`,
  )) as unknown as { rows?: Array<{ id: number }> } & Array<{ id: number }>;
  return Number((res.rows ?? res)[0]!.id);
}

/** The published application number: offering id and application id, zero-padded (e.g. 0007-000042). */
export function applicationNo(offeringId: number, id: number): string {
  return `${String(offeringId).padStart(4, '0')}-${String(id).padStart(6, '0')}`;
}

/** Moves the application's payable amount available → frozen. @throws insufficientBalance */
async function hold(tx: Tx, a: ApplicationRow): Promise<void> {
  await post(tx, {
    type: 'subscriptionPayment',
    ...ref(a),
    postings: move(member(a.userId, 'available'), member(a.userId, 'frozen'), a.payableMinor),
  });
}

/**
 * Pays (holds the amount of) the member's own unpaid application while the deduction step has
 * not run. @throws AppError ipoNotFound (not theirs) | ipoNotPayable | insufficientBalance
 */
export async function pay(db: Db | Tx, userId: number, applicationId: number): Promise<ApplicationRow> {
  return db.transaction(async (tx) => {
    const [own] = await tx
      .select({ offeringId: ipoApplications.offeringId })
      .from(ipoApplications)
      .where(and(eq(ipoApplications.id, applicationId), eq(ipoApplications.userId, userId)));
    if (!own) throw fail('ipoNotFound');
    const [o] = await tx.select().from(ipoOfferings).where(eq(ipoOfferings.id, own.offeringId)).for('share');
    const [a] = await tx
      .select()
      .from(ipoApplications)
      .where(eq(ipoApplications.id, applicationId))
      .for('update');
    if (!a || a.status !== 'unpaid' || o!.stage !== 'scheduled') throw fail('ipoNotPayable');
    await hold(tx, a);
    const [updated] = await tx
      .update(ipoApplications)
      .set({ status: 'waitingDraw', paidMinor: a.payableMinor })
      .where(eq(ipoApplications.id, a.id))
      .returning();
    return updated!;
  });
}

// ---------- steps ----------

/** The stage each step needs, the one it leaves, and its day (offset from the first apply day). */
const STEPS: Array<{ from: IpoStage; to: IpoStage; due: (o: OfferingRow) => number }> = [
  { from: 'scheduled', to: 'deducted', due: (o) => o.applyStartDay + IPO_STEP_OFFSETS.deduction },
  { from: 'deducted', to: 'drawn', due: (o) => o.applyStartDay + IPO_STEP_OFFSETS.draw },
  { from: 'drawn', to: 'refunded', due: (o) => o.applyStartDay + IPO_STEP_OFFSETS.refund },
  { from: 'refunded', to: 'listed', due: (o) => o.listingDay },
];

/**
 * Runs every step due on business day `cal.today()` for every offering, in stage order, each in
 * its own transaction (see the module docstring). Returns the number of steps run.
 */
export async function runDue(db: Db, cal: IpoCalendar): Promise<number> {
  const today = cal.today();
  const open = await db
    .select({ id: ipoOfferings.id })
    .from(ipoOfferings)
    .where(
      and(
        sql`${ipoOfferings.stage} <> 'listed'`,
        sql`${ipoOfferings.applyStartDay} + ${IPO_STEP_OFFSETS.deduction} <= ${today}`,
      ),
    )
    .orderBy(asc(ipoOfferings.id));
  let ran = 0;
  for (const { id } of open) {
    for (;;) {
      await yieldToEventLoop();
      const done = await db.transaction((tx) => runNextStep(tx, id, today, cal));
      if (!done) break;
      ran++;
    }
  }
  return ran;
}

/** Runs the offering's next step when it is due; false when none is. */
async function runNextStep(tx: Tx, offeringId: number, today: number, cal: IpoCalendar): Promise<boolean> {
  const [o] = await tx.select().from(ipoOfferings).where(eq(ipoOfferings.id, offeringId)).for('update');
  const step = STEPS.find((s) => s.from === o!.stage);
  if (!step || step.due(o!) > today) return false;
  if (step.to === 'deducted') await deduct(tx, o!);
  else if (step.to === 'drawn') await draw(tx, o!, cal);
  else if (step.to === 'refunded') await refund(tx, o!);
  else await deliver(tx, o!, cal);
  await tx.update(ipoOfferings).set({ stage: step.to }).where(eq(ipoOfferings.id, o!.id));
  return true;
}

const appsOf = (tx: Tx, offeringId: number, statuses: ApplicationRow['status'][]) =>
  tx
    .select()
    .from(ipoApplications)
    .where(and(eq(ipoApplications.offeringId, offeringId), inArray(ipoApplications.status, statuses)))
    .orderBy(asc(ipoApplications.id))
    .for('update');

/**
 * Deduction day: an unpaid application is paid from `available` when it can be, else waived
 * (disqualified); every qualified one pays the NT$20 processing fee; the qualified application
 * numbers are published.
 */
async function deduct(tx: Tx, o: OfferingRow): Promise<void> {
  for (const a of await appsOf(tx, o.id, ['unpaid'])) {
    if ((await lockedAvailable(tx, a.userId)) >= a.payableMinor) {
      await hold(tx, a);
      await tx
        .update(ipoApplications)
        .set({ status: 'waitingDraw', paidMinor: a.payableMinor })
        .where(eq(ipoApplications.id, a.id));
    } else {
      await tx.update(ipoApplications).set({ status: 'waived' }).where(eq(ipoApplications.id, a.id));
    }
  }
  const qualified = await appsOf(tx, o.id, ['waitingDraw']);
  for (const a of qualified)
    await post(tx, {
      type: 'subscriptionPayment',
      ...ref(a),
      postings: move(member(a.userId, 'frozen'), { platform: 'fee_revenue' }, IPO_PROCESSING_FEE_MINOR),
    });
  await tx
    .update(ipoDraws)
    .set({ qualified: qualified.map((a) => a.applicationNo).sort() })
    .where(eq(ipoDraws.offeringId, o.id));
}

/**
 * Draw day: the winners by contract/ipo.ts drawWinners over the published qualified numbers with
 * the offering's seed (every qualified application when there are no more than units); the seed
 * is revealed with the winners.
 */
async function draw(tx: Tx, o: OfferingRow, cal: IpoCalendar): Promise<void> {
  const [d] = await tx.select().from(ipoDraws).where(eq(ipoDraws.offeringId, o.id));
  const qualified = d!.qualified ?? [];
  const winners = await drawWinners(o.seed, qualified, d!.units);
  const won = new Set(winners);
  for (const a of await appsOf(tx, o.id, ['waitingDraw'])) {
    const isWinner = won.has(a.applicationNo);
    await tx
      .update(ipoApplications)
      .set({ status: isWinner ? 'won' : 'notWon', wonUnits: isWinner ? 1 : 0 })
      .where(eq(ipoApplications.id, a.id));
    await notifyMember(tx, a.userId, isWinner ? 'ipoWon' : 'ipoNotWon', {
      symbol: o.symbol,
      name: o.name,
      applicationNo: a.applicationNo,
      shares: a.shares,
    });
  }
  await tx
    .update(ipoDraws)
    .set({
      seed: o.seed,
      winners,
      oversubscribed: qualified.length > d!.units,
      drawnAt: new Date(cal.now()),
    })
    .where(eq(ipoDraws.offeringId, o.id));
}

/** Refund day: non-winners get price × shares + NT$50 back; winners pay the NT$50 notification fee. */
async function refund(tx: Tx, o: OfferingRow): Promise<void> {
  for (const a of await appsOf(tx, o.id, ['notWon'])) {
    const back = notionalMinor(a.priceMinor, a.shares) + IPO_NOTIFICATION_FEE_MINOR;
    await post(tx, {
      type: 'subscriptionRefund',
      ...ref(a),
      postings: move(member(a.userId, 'frozen'), member(a.userId, 'available'), back),
    });
    await tx.update(ipoApplications).set({ refundedMinor: back }).where(eq(ipoApplications.id, a.id));
  }
  for (const a of await appsOf(tx, o.id, ['won']))
    await post(tx, {
      type: 'lottery',
      ...ref(a),
      postings: move(member(a.userId, 'frozen'), { platform: 'fee_revenue' }, IPO_NOTIFICATION_FEE_MINOR),
    });
}

/** Listing day: each winner's shares become a long holding without leverage at the offer price. */
async function deliver(tx: Tx, o: OfferingRow, cal: IpoCalendar): Promise<void> {
  for (const a of await appsOf(tx, o.id, ['won'])) {
    const order = await openPaidHolding(
      tx,
      { now: () => new Date(cal.now()) },
      {
        orderNo: `S${a.applicationNo.replace('-', '')}`,
        userId: a.userId,
        symbol: o.symbol,
        lots: Math.max(1, Math.floor(a.shares / 1000)),
        shares: a.shares,
        tradeDate: cal.label(o.listingDay),
      },
      a.priceMinor,
    );
    await tx
      .update(ipoApplications)
      .set({ status: 'subscribed', orderId: order.id })
      .where(eq(ipoApplications.id, a.id));
  }
}
