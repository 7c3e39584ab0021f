/**
 * `position_exposures` (migration 0027) against its source: the open positions and resting orders
 * of `orders` summed again from scratch. The table is kept by a trigger in the same statement as
 * every order write, so any difference is a bug; tests and `npm run ledger:check` assert none.
 * Units: minor units, shares.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** One (member, pool, instrument, side, kind) whose stored sums differ from the recomputed ones. */
export interface ExposureDrift {
  userId: number;
  pool: number;
  symbol: string;
  side: string;
  cash: boolean;
  stored: string;
  recomputed: string;
}

/** Every row of position_exposures that differs from orders summed again (none in a sound database). */
export async function exposureDrift(db: Db): Promise<ExposureDrift[]> {
  const res = (await db.execute(sql`
    with recomputed as (
      select user_id, coalesce(follow_id, 0) as pool, symbol, side, (side = 'long' and leverage = 1) as cash,
        count(*) filter (where status <> 'pending') as open_count,
        coalesce(sum(shares) filter (where status <> 'pending'), 0) as open_shares,
        coalesce(sum(open_value_minor) filter (where status <> 'pending'), 0) as open_value_minor,
        coalesce(sum(margin_minor) filter (where status <> 'pending'), 0) as open_margin_minor,
        count(*) filter (where status = 'pending') as resting_count,
        coalesce(sum(frozen_minor) filter (where status = 'pending'), 0) as resting_frozen_minor,
        coalesce(sum(margin_minor) filter (where status = 'pending'), 0) as resting_margin_minor
      from orders
      where status = 'pending' or (status in ('holding', 'closing') and open_value_minor is not null)
      group by 1, 2, 3, 4, 5
    ),
    stored as (
      select user_id, pool, symbol, side, cash, open_count, open_shares, open_value_minor,
        open_margin_minor, resting_count, resting_frozen_minor, resting_margin_minor
      from position_exposures where open_count <> 0 or resting_count <> 0 or open_shares <> 0
        or open_value_minor <> 0 or open_margin_minor <> 0 or resting_frozen_minor <> 0
        or resting_margin_minor <> 0
    )
    select coalesce(s.user_id, r.user_id) as user_id, coalesce(s.pool, r.pool) as pool,
      coalesce(s.symbol, r.symbol) as symbol, coalesce(s.side, r.side) as side,
      coalesce(s.cash, r.cash) as cash,
      concat_ws(',', s.open_count, s.open_shares, s.open_value_minor, s.open_margin_minor,
        s.resting_count, s.resting_frozen_minor, s.resting_margin_minor) as stored,
      concat_ws(',', r.open_count, r.open_shares, r.open_value_minor, r.open_margin_minor,
        r.resting_count, r.resting_frozen_minor, r.resting_margin_minor) as recomputed
    from stored s full join recomputed r using (user_id, pool, symbol, side, cash)
    where s.user_id is null or r.user_id is null
      or (s.open_count, s.open_shares, s.open_value_minor, s.open_margin_minor, s.resting_count,
          s.resting_frozen_minor, s.resting_margin_minor)
         is distinct from (r.open_count, r.open_shares, r.open_value_minor, r.open_margin_minor,
          r.resting_count, r.resting_frozen_minor, r.resting_margin_minor)`)) as unknown as
    { rows: Array<Record<string, unknown>> } | Array<Record<string, unknown>>;
  const rows = Array.isArray(res) ? res : res.rows;
  return rows.map((r) => ({
    userId: Number(r.user_id),
    pool: Number(r.pool),
    symbol: String(r.symbol),
    side: String(r.side),
    cash: r.cash === true || r.cash === 't',
    stored: String(r.stored),
    recomputed: String(r.recomputed),
  }));
}
