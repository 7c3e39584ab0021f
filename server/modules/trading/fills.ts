/**
 * The ledger side of every order event, each inside the caller's DB transaction and with the
 * order row already locked (`FOR UPDATE`) by the caller:
 *
 * - openFromAvailable: an order that fills on arrival pays margin, fee and tax from `available`.
 * - freezeFor / releaseOrder: a resting order reserves margin + fee + tax (openCosts at its price)
 *   from `available` into `frozen` (`orderFreeze`); a cancelled or expired one gives it back
 *   (`orderUnfreeze`).
 * - fillFromFrozen: a resting order fills at `priceMinor` (its limit in continuous trading, the
 *   auction price at an opening or closing match, the fixed price after hours). The costs are
 *   openCosts at that price, paid from `frozen`; a fill cheaper than what was frozen returns the
 *   rest (`orderUnfreeze`); a dearer one (a short filled above its limit at an auction needs more
 *   margin) first freezes the difference from `available`, and when the member cannot cover it
 *   the order is cancelled instead (`insufficientFunds`).
 * - closeAt: closes a holding (or a position queued to close) at `priceMinor`: margin back,
 *   realised P&L, closing fee and tax (closeResult), a loss beyond the member's funds moved to
 *   `debt` (`lossShortfall`). The one implementation behind the member's close, the auction
 *   closes and forced closes (liquidation, day-trade close).
 *
 * Costs come from contract/market-rules.ts (openCosts, closeResult), the functions the order
 * ticket's preview uses, so preview and execution agree to the cent; each with the fee discount
 * recorded on the order row when it was placed (orderDiscount: the account level's bps, the
 * coupon on the opening leg; docs/levels.md). Units: minor (TWD), shares.
 */
import { and, eq, getTableColumns, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
  closeResult,
  openCosts,
  type FeeDiscount,
  type FeeSchedule,
  type InstrumentKind,
  type SaleContext,
  type Side,
} from '../../../contract/market-rules';
import { notionalMinor } from '../../../contract/money';
import type { CloseReason } from '../../../contract/trading';
import type { Db, Tx } from '../../db/client';
import { feeCoupons, instruments, ledgerAccounts, orders } from '../../db/schema';
import { fail } from '../common/errors';
import {
  ledgerBatch,
  ledgerRefusal,
  move,
  post,
  postAll,
  postingsSql,
  type PostInput,
} from '../ledger/ledger';

export type OrderRow = typeof orders.$inferSelect;

/** What the ledger operations need besides the order: fee schedule, instrument kind, wall clock. */
export interface FillEnv {
  fees: FeeSchedule;
  kindOf(symbol: string): InstrumentKind;
  /**
   * A sale's tax kind and trade date (contract/market-rules.ts SaleContext: a bond ETF's sale is
   * untaxed while its suspension runs); absent: the kind's base rate.
   */
  saleOf?(symbol: string): SaleContext;
  /** Wall-clock instant for opened_at / closed_at. */
  now(): Date;
}

const orderRef = (order: { id?: number; userId: number }) => ({
  refType: 'order',
  refId: order.id,
  actorUserId: order.userId,
});
const member = (userId: number, purpose: 'available' | 'frozen' | 'margin' | 'debt') =>
  ({ userId, purpose }) as const;

/**
 * The value an order row's `symbol` is inserted with: the symbol when its instrument is listed,
 * else NULL, which the NOT NULL column refuses (SQLSTATE 23502 on `symbol`: the engine answers
 * productDelisted). The check rides on the insert instead of costing a read of its own.
 */
export function listedSymbol(symbol: string | Placeholder): SQL {
  return sql`(select ${instruments.symbol} from ${instruments} where ${instruments.symbol} = ${symbol} and not ${instruments.delisted})`;
}

/** The discount columns of an order row (contract/market-rules.ts FeeDiscount); absent: none. */
type DiscountColumns = Partial<Pick<OrderRow, 'feeDiscountBps' | 'couponBps' | 'couponOffMinor'>>;

/** The order's fee discount as recorded when it was placed (level bps and its coupon). */
export function orderDiscount(order: DiscountColumns): FeeDiscount {
  return {
    levelBps: order.feeDiscountBps ?? 0,
    couponBps: order.couponBps ?? 0,
    couponOffMinor: order.couponOffMinor ?? 0,
  };
}

/** openCosts of the order at `priceMinor`, with the fee discount recorded on it. */
export function costsAt(
  env: FillEnv,
  order: Pick<OrderRow, 'symbol' | 'lots' | 'leverage' | 'side'> & DiscountColumns,
  priceMinor: number,
) {
  return openCosts({
    priceMinor,
    lots: order.lots,
    leverage: order.leverage,
    side: order.side as Side,
    kind: env.kindOf(order.symbol),
    fees: env.fees,
    discount: orderDiscount(order),
    sale: env.saleOf?.(order.symbol),
  });
}

/** The member's TWD available balance, row locked for the rest of the transaction. */
export async function lockedAvailable(tx: Tx, userId: number): Promise<number> {
  const row = (
    await tx
      .select({ balance: ledgerAccounts.balanceMinor })
      .from(ledgerAccounts)
      .where(
        and(
          eq(ledgerAccounts.userId, userId),
          eq(ledgerAccounts.purpose, 'available'),
          eq(ledgerAccounts.currency, 'TWD'),
        ),
      )
      .for('update')
  )[0];
  return row?.balance ?? 0;
}

/**
 * The ledger transactions paying margin, fee and tax of an opening trade from `from`. `floorMinor`
 * (> 0): the least the member's `available` balance must keep after them (engine.ts's
 * whole-account check, contract/risk.ts openingCheck availableFloorMinor), enforced by the ledger
 * in the same statement, so a change of the balance after the check cannot slip past it.
 */
function openPostings(
  order: { id?: number; userId: number },
  c: ReturnType<typeof openCosts>,
  from: 'available' | 'frozen',
  floorMinor = 0,
): PostInput[] {
  const src = member(order.userId, from);
  const ref = orderRef(order);
  const purchase = move(src, member(order.userId, 'margin'), c.marginMinor);
  if (from === 'available' && floorMinor > 0) purchase[0] = { ...purchase[0]!, floorMinor };
  const out: PostInput[] = [
    { type: 'stockPurchase', ...ref, postings: purchase },
    { type: 'tradeFee', ...ref, postings: move(src, { platform: 'fee_revenue' }, c.feeMinor) },
  ];
  if (c.taxMinor > 0)
    out.push({
      type: 'transactionTax',
      ...ref,
      postings: move(src, { platform: 'tax_payable' }, c.taxMinor),
    });
  return out;
}

/**
 * The columns of a filled (holding) order opened at `priceMinor` with costs `c`; its open value
 * is the opening notional (price × shares: one fill price for the whole order).
 */
function holdingColumns(env: FillEnv, priceMinor: number, c: ReturnType<typeof openCosts>) {
  return {
    status: 'holding',
    openPriceMinor: priceMinor,
    openValueMinor: c.notionalMinor,
    openedAt: env.now(),
    marginMinor: c.marginMinor,
    openFeeMinor: c.feeMinor,
    openTaxMinor: c.taxMinor,
    frozenMinor: 0,
  } as const;
}

async function markHolding(
  tx: Tx,
  env: FillEnv,
  order: OrderRow,
  priceMinor: number,
  c: ReturnType<typeof openCosts>,
): Promise<OrderRow> {
  const [updated] = await tx
    .update(orders)
    .set(holdingColumns(env, priceMinor, c))
    .where(eq(orders.id, order.id))
    .returning();
  return updated!;
}

/** The columns a filled order is inserted with, besides its symbol (see openStatement). */
const OPEN_COLUMNS = [
  'orderNo',
  'userId',
  'side',
  'orderType',
  'limitPriceMinor',
  'lots',
  'shares',
  'leverage',
  'status',
  'timeInForce',
  'entrySession',
  'tradeDate',
  'dayTrade',
  'openPriceMinor',
  'openValueMinor',
  'openedAt',
  'marginMinor',
  'openFeeMinor',
  'openTaxMinor',
  'frozenMinor',
  // The member's idempotency key goes in with the position (engine.ts placeOrder).
  'idempotencyKey',
  'requestSha256',
  // The fee discount the position was opened with (orderDiscount).
  'feeDiscountBps',
  'couponId',
  'couponBps',
  'couponOffMinor',
  // The risk pool a copy opens in (orders.follow_id; null: the member's own).
  'followId',
] as const;
/** Values of OPEN_COLUMNS that are NOT NULL with a default, for rows that leave them out. */
const OPEN_DEFAULTS: Partial<Record<(typeof OPEN_COLUMNS)[number], number>> = {
  feeDiscountBps: 0,
  couponBps: 0,
  couponOffMinor: 0,
};
const openParam = (row: Record<string, unknown>, k: (typeof OPEN_COLUMNS)[number]) =>
  row[k] ?? OPEN_DEFAULTS[k] ?? null;

/**
 * INSERT of a filled order whose RETURNING clause posts its ledger batch for the new id, with a
 * placeholder per column, `symbol` (through listedSymbol) and `batch`: the same text every time,
 * so on a Db it is prepared once (drizzle `.prepare`: PostgreSQL parses and plans it once per
 * connection).
 */
function openStatement(q: Db | Tx) {
  const columns = Object.fromEntries(OPEN_COLUMNS.map((k) => [k, sql.placeholder(k)]));
  return q
    .insert(orders)
    .values({
      ...(columns as unknown as typeof orders.$inferInsert),
      symbol: listedSymbol(sql.placeholder('symbol')),
    })
    .returning({
      ...getTableColumns(orders),
      posted: postingsSql(sql.placeholder('batch'), sql`${orders.id}`),
    });
}
const preparedOpen = new WeakMap<Db | Tx, ReturnType<ReturnType<typeof openStatement>['prepare']>>();

/**
 * Opens a position that fills on arrival at `priceMinor`, paying margin, fee and tax from
 * `available`, in ONE statement (openStatement): the order row (`values` plus the holding
 * columns: status holding, open price, costs) is inserted and its RETURNING clause posts the
 * ledger batch for the new id (ledger postingsSql), so on its own (`db`, prepared) it is atomic,
 * and inside a transaction it is one round trip. `opts.floorMinor`: openPostings.
 * @throws AppError('insufficientBalance') when the member cannot pay or the floor would be crossed
 *   (nothing is written).
 */
export async function openFromAvailable(
  q: Db | Tx,
  env: FillEnv,
  values: typeof orders.$inferInsert,
  priceMinor: number,
  opts: { prepared?: boolean; floorMinor?: number } = {},
): Promise<OrderRow> {
  const c = costsAt(env, values, priceMinor);
  const row: Record<string, unknown> = { ...values, ...holdingColumns(env, priceMinor, c) };
  const params: Record<string, unknown> = {
    symbol: values.symbol,
    batch: ledgerBatch(openPostings({ userId: values.userId }, c, 'available', opts.floorMinor)),
  };
  for (const k of OPEN_COLUMNS) params[k] = openParam(row, k);
  let stmt = opts.prepared ? preparedOpen.get(q) : undefined;
  if (opts.prepared && !stmt) preparedOpen.set(q, (stmt = openStatement(q).prepare('open_filled_order')));
  try {
    const [inserted] = await (stmt ?? openStatement(q)).execute(params);
    const { posted: _posted, ...order } = inserted!;
    return order;
  } catch (err) {
    throw ledgerRefusal(err);
  }
}

/**
 * The multi-row form of openStatement for `n` orders: placeholders `<column>_<i>` and
 * `symbol_<i>` per row, and `batches`, one JSON object of every row's ledger batch keyed by its
 * order number, from which each row's RETURNING clause posts its own for its new id.
 */
function openManyStatement(db: Db, n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    ...(Object.fromEntries(
      OPEN_COLUMNS.map((k) => [k, sql.placeholder(`${k}_${i}`)]),
    ) as unknown as typeof orders.$inferInsert),
    symbol: listedSymbol(sql.placeholder(`symbol_${i}`)),
  }));
  return db
    .insert(orders)
    .values(rows)
    .returning({
      ...getTableColumns(orders),
      posted: postingsSql(
        sql`(${sql.placeholder('batches')}::jsonb -> ${orders.orderNo})`,
        sql`${orders.id}`,
      ),
    })
    .prepare(`open_filled_orders_${n}`);
}
const preparedMany = new WeakMap<Db, Map<number, ReturnType<typeof openManyStatement>>>();

/**
 * Opens several positions that fill on arrival, in ONE statement (openManyStatement, prepared
 * once per connection and batch size): the order rows, as openFromAvailable's, and each row's
 * ledger batch posted for its new id. All or none: any refusal (one member's balance, a delisted
 * symbol) fails the whole statement and nothing is written; the caller (open-lanes.ts) then
 * places the orders one by one to learn which. Returns the rows in the order of `items`.
 */
export async function openManyFromAvailable(
  db: Db,
  env: FillEnv,
  items: ReadonlyArray<{ values: typeof orders.$inferInsert; priceMinor: number; floorMinor?: number }>,
): Promise<OrderRow[]> {
  const params: Record<string, unknown> = {};
  const batches: string[] = [];
  items.forEach(({ values, priceMinor, floorMinor }, i) => {
    const c = costsAt(env, values, priceMinor);
    const row: Record<string, unknown> = { ...values, ...holdingColumns(env, priceMinor, c) };
    for (const k of OPEN_COLUMNS) params[`${k}_${i}`] = openParam(row, k);
    params[`symbol_${i}`] = values.symbol;
    batches.push(
      `${JSON.stringify(values.orderNo)}:${ledgerBatch(openPostings({ userId: values.userId }, c, 'available', floorMinor))}`,
    );
  });
  params.batches = `{${batches.join(',')}}`;
  let bySize = preparedMany.get(db);
  if (!bySize) preparedMany.set(db, (bySize = new Map()));
  let stmt = bySize.get(items.length);
  if (!stmt) bySize.set(items.length, (stmt = openManyStatement(db, items.length)));
  const inserted = await stmt.execute(params);
  const byNo = new Map(inserted.map(({ posted: _posted, ...order }) => [order.orderNo, order]));
  return items.map(({ values }) => byNo.get(values.orderNo)!);
}

/**
 * Freezes openCosts(order at `priceMinor`).requiredMinor from `available` for a resting order
 * and records it on the row, with the margin its fill will use (`margin_minor` while pending:
 * what the whole-account check counts as used by resting orders). `floorMinor`: openPostings.
 * @throws AppError('insufficientBalance').
 */
export async function freezeFor(
  tx: Tx,
  env: FillEnv,
  order: OrderRow,
  priceMinor: number,
  floorMinor = 0,
): Promise<OrderRow> {
  const c = costsAt(env, order, priceMinor);
  const postings = move(member(order.userId, 'available'), member(order.userId, 'frozen'), c.requiredMinor);
  if (floorMinor > 0) postings[0] = { ...postings[0]!, floorMinor };
  await post(tx, { type: 'orderFreeze', ...orderRef(order), postings });
  const [row] = await tx
    .update(orders)
    .set({ frozenMinor: c.requiredMinor, marginMinor: c.marginMinor })
    .where(eq(orders.id, order.id))
    .returning();
  return row!;
}

/**
 * Ends a pending order unfilled: its frozen funds go back to `available` (`orderUnfreeze`) and it
 * becomes `cancelled` with `reason`. Conditional on the row still being pending.
 */
export async function releaseOrder(
  tx: Tx,
  env: FillEnv,
  order: OrderRow,
  reason: CloseReason,
): Promise<OrderRow> {
  if (order.status !== 'pending') throw fail('orderNotPending');
  await post(tx, {
    type: 'orderUnfreeze',
    ...orderRef(order),
    postings: move(member(order.userId, 'frozen'), member(order.userId, 'available'), order.frozenMinor),
  });
  // Never filled, so no fee was charged: the coupon it carried is the member's again.
  if (order.couponId !== null)
    await tx
      .update(feeCoupons)
      .set({ status: 'available', orderNo: null, usedAt: null })
      .where(and(eq(feeCoupons.id, order.couponId), eq(feeCoupons.status, 'used')));
  const [updated] = await tx
    .update(orders)
    .set({ status: 'cancelled', frozenMinor: 0, marginMinor: 0, closedAt: env.now(), closeReason: reason })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
    .returning();
  return updated!;
}

/**
 * Fills a resting (pending, frozen) order at `priceMinor` from its frozen funds; see the module
 * docstring for a fill that costs less or more than was frozen. Returns the holding, or the
 * cancelled row when a dearer fill could not be covered.
 */
export async function fillFromFrozen(
  tx: Tx,
  env: FillEnv,
  order: OrderRow,
  priceMinor: number,
): Promise<OrderRow> {
  if (order.status !== 'pending') throw fail('orderNotPending');
  const c = costsAt(env, order, priceMinor);
  const ref = orderRef(order);
  const batch: PostInput[] = [];
  let frozen = order.frozenMinor;
  if (c.requiredMinor > frozen) {
    const extra = c.requiredMinor - frozen;
    if ((await lockedAvailable(tx, order.userId)) < extra)
      return releaseOrder(tx, env, order, 'insufficientFunds');
    batch.push({
      type: 'orderFreeze',
      ...ref,
      postings: move(member(order.userId, 'available'), member(order.userId, 'frozen'), extra),
    });
    frozen += extra;
  }
  batch.push(...openPostings(order, c, 'frozen'));
  if (frozen > c.requiredMinor)
    batch.push({
      type: 'orderUnfreeze',
      ...ref,
      postings: move(
        member(order.userId, 'frozen'),
        member(order.userId, 'available'),
        frozen - c.requiredMinor,
      ),
    });
  await postAll(tx, batch);
  return markHolding(tx, env, order, priceMinor, c);
}

/**
 * Closes `order` (status holding or closing, row locked by the caller) at `priceMinor` and marks
 * it `closed` with `reason`. `dayTradeOn` (ISO trade date): the position is a same-day day trade,
 * so its sale is taxed at the day-trade rate (market-rules sellTaxPpm) and `day_trade` is set.
 * @throws AppError('orderNotHolding') for any other status.
 */
export async function closeAt(
  tx: Tx,
  env: FillEnv,
  order: OrderRow,
  priceMinor: number,
  reason: CloseReason,
  opts: { dayTradeOn?: string } = {},
): Promise<OrderRow> {
  if (order.status !== 'holding' && order.status !== 'closing') throw fail('orderNotHolding');
  const side = order.side as Side;
  const r = closeResult({
    openValueMinor: order.openValueMinor!,
    closePriceMinor: priceMinor,
    shares: order.shares,
    side,
    kind: env.kindOf(order.symbol),
    fees: env.fees,
    dayTradeOn: opts.dayTradeOn,
    discount: { levelBps: order.feeDiscountBps },
    sale: env.saleOf?.(order.symbol),
  });
  const me = (purpose: 'available' | 'margin' | 'debt') => member(order.userId, purpose);
  const ref = orderRef(order);
  const avail = await lockedAvailable(tx, order.userId);
  const after = avail + order.marginMinor + r.pnlMinor - r.feeMinor - r.taxMinor;
  const batch: PostInput[] = [
    { type: 'stockSale', ...ref, postings: move(me('margin'), me('available'), order.marginMinor) },
  ];
  // A loss beyond the member's funds becomes debt, never a negative available balance.
  if (after < 0)
    batch.push({ type: 'lossShortfall', ...ref, postings: move(me('debt'), me('available'), -after) });
  batch.push(
    { type: 'realisedPnl', ...ref, postings: move({ platform: 'trading_pnl' }, me('available'), r.pnlMinor) },
    { type: 'tradeFee', ...ref, postings: move(me('available'), { platform: 'fee_revenue' }, r.feeMinor) },
  );
  if (r.taxMinor > 0)
    batch.push({
      type: 'transactionTax',
      ...ref,
      postings: move(me('available'), { platform: 'tax_payable' }, r.taxMinor),
    });
  await postAll(tx, batch);
  const [updated] = await tx
    .update(orders)
    .set({
      status: 'closed',
      closePriceMinor: priceMinor,
      closedAt: env.now(),
      closeFeeMinor: r.feeMinor,
      closeTaxMinor: r.taxMinor,
      pnlMinor: r.pnlMinor,
      closeReason: reason,
      // Closed: a day trade exactly when taxed as one (one entered as a day trade but offset on a
      // later day is not).
      dayTrade: opts.dayTradeOn !== undefined,
    })
    .where(and(eq(orders.id, order.id), inArray(orders.status, ['holding', 'closing'])))
    .returning();
  return updated!;
}

/**
 * Opens a long holding without leverage for shares already paid for, from money the member has
 * in `frozen` (a public-subscription allotment delivered on its listing day, server/modules/ipo):
 * the order row is inserted as a holding at `priceMinor` (the offer price) with margin = price ×
 * shares and no fee or tax (the subscription's own fees were charged by the subscription), and
 * the margin moves frozen → margin (`stockPurchase`, like every opening). From then on it is held,
 * valued and closed like any position. Units: minor, shares.
 * @throws AppError('insufficientBalance') when `frozen` does not hold the margin (nothing written).
 */
export async function openPaidHolding(
  tx: Tx,
  env: Pick<FillEnv, 'now'>,
  values: Pick<typeof orders.$inferInsert, 'orderNo' | 'userId' | 'symbol' | 'lots' | 'shares' | 'tradeDate'>,
  priceMinor: number,
): Promise<OrderRow> {
  const marginMinor = notionalMinor(priceMinor, values.shares);
  const c = { notionalMinor: marginMinor, marginMinor, feeMinor: 0, taxMinor: 0 } as ReturnType<
    typeof openCosts
  >;
  const [row] = await tx
    .insert(orders)
    .values({
      ...values,
      side: 'long',
      orderType: 'limit',
      limitPriceMinor: priceMinor,
      leverage: 1,
      timeInForce: 'ROD',
      entrySession: 'regular',
      ...holdingColumns(env as FillEnv, priceMinor, c),
    })
    .returning();
  await post(tx, {
    type: 'stockPurchase',
    ...orderRef(row!),
    postings: move(member(row!.userId, 'frozen'), member(row!.userId, 'margin'), marginMinor),
  });
  return row!;
}
