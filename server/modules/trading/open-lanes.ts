/**
 * Group commit for orders that fill on arrival (the engine's hot path: a market order, or a
 * limit order that crosses, with no daily order count to check).
 *
 * Each order goes to a lane by its member (`userId % lanes`). A lane writes one statement at a
 * time: the orders that arrived while its previous statement ran go together in the next one
 * (fills.ts openManyFromAvailable: one multi-row INSERT posting every order's ledger batch), up
 * to `maxBatch`. An order alone in its lane is written at once (openFromAvailable, prepared), so
 * nothing waits on a timer: under load a batch is what piled up during one round trip.
 *
 * Why: one commit and one round trip per batch instead of per order; PostgreSQL's WAL flush and
 * the context switches of each round trip were most of an order's cost (docs/adr/0017-ledger-writes-and-order-lanes.md). Lanes split the members, and with them the platform's ledger slots
 * (PLATFORM_SLOTS % lanes === 0, so a slot belongs to one lane): two lanes never wait on each
 * other's rows, and a lane's statements never deadlock among themselves.
 *
 * A batch is all or none: when it fails (a member cannot pay, a symbol was delisted, a
 * deadlock with another transaction, an order whose idempotency key already placed one: the
 * unique (user_id, idempotency_key) index), each of its orders is placed again on its own and gets
 * its own answer (a duplicate key's is the order already placed, engine.ts placeOrder). Every order is still its own ledger transactions, written in the same database
 * transaction as its order row.
 */
import type { Db } from '../../db/client';
import type { orders } from '../../db/schema';
import { PLATFORM_SLOTS } from '../ledger/ledger';
import { openFromAvailable, openManyFromAvailable, type FillEnv, type OrderRow } from './fills';

type Values = typeof orders.$inferInsert;
interface Pending {
  values: Values;
  priceMinor: number;
  /** The member's available floor (fills.ts openPostings), 0 for none. */
  floorMinor: number;
  resolve(row: OrderRow): void;
  reject(err: unknown): void;
}

export interface OpenLanes {
  /**
   * Opens a filled position (as fills.ts openFromAvailable, with the member's available floor
   * `floorMinor`) through the member's lane.
   * @throws AppError('insufficientBalance') and the errors of openFromAvailable.
   */
  open(values: Values, priceMinor: number, floorMinor?: number): Promise<OrderRow>;
  /**
   * Counters since start: statements of more than one order (`batches`), the orders they held
   * (`batchedOrders`), and the orders placed again one by one after their batch failed (`retried`).
   */
  readonly stats: LaneStats;
}

export interface LaneStats {
  batches: number;
  batchedOrders: number;
  retried: number;
}

/**
 * @param lanes how many lanes (a divisor of PLATFORM_SLOTS; default 2, one per core here)
 * @param maxBatch most orders in one statement (default 16)
 */
export function openLanes(db: Db, env: FillEnv, opts: { lanes?: number; maxBatch?: number } = {}): OpenLanes {
  const lanes = opts.lanes ?? 2;
  const maxBatch = opts.maxBatch ?? 16;
  if (PLATFORM_SLOTS % lanes !== 0) throw new Error(`lanes (${lanes}) must divide ${PLATFORM_SLOTS}`);
  const queues: Pending[][] = Array.from({ length: lanes }, () => []);
  const busy: boolean[] = new Array(lanes).fill(false);
  const stats: LaneStats = { batches: 0, batchedOrders: 0, retried: 0 };

  const single = (p: Pending) =>
    openFromAvailable(db, env, p.values, p.priceMinor, { prepared: true, floorMinor: p.floorMinor }).then(
      p.resolve,
      p.reject,
    );

  async function drain(lane: number): Promise<void> {
    const queue = queues[lane]!;
    busy[lane] = true;
    while (queue.length) {
      const batch = queue.splice(0, maxBatch);
      if (batch.length === 1) {
        await single(batch[0]!);
        continue;
      }
      stats.batches++;
      stats.batchedOrders += batch.length;
      try {
        const rows = await openManyFromAvailable(db, env, batch);
        batch.forEach((p, i) => p.resolve(rows[i]!));
      } catch {
        stats.retried += batch.length;
        await Promise.all(batch.map(single));
      }
    }
    busy[lane] = false;
  }

  return {
    stats,
    open(values, priceMinor, floorMinor = 0) {
      return new Promise<OrderRow>((resolve, reject) => {
        const lane = values.userId % lanes;
        queues[lane]!.push({ values, priceMinor, floorMinor, resolve, reject });
        if (!busy[lane]) void drain(lane);
      });
    },
  };
}
