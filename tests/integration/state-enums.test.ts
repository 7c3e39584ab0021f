/**
 * State columns are typed enums with a database CHECK (server/db/schema/<area>.ts, migration 0009), on
 * PGlite and PostgreSQL:
 * - every text column named like a state (status, state, kind, role, side, type, purpose, reason,
 *   session, granted_by) in the schema is an enum column, bar the listed free-text ones;
 * - every enum column has a CHECK `<table>_<column>_check` in the migrated database whose values are
 *   exactly the contract's list, in order (read back with pg_get_constraintdef);
 * - on a real row, each listed value is accepted and a value outside the list is refused with
 *   SQLSTATE 23514 naming that constraint.
 */
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../server/db/schema';
import { ORDER_STATUSES } from '../../contract/trading';
import { startHarness, type Harness } from './harness';

interface EnumColumn {
  table: string;
  column: string;
  values: readonly string[];
}

const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
const enumColumns: EnumColumn[] = tables.flatMap((t) => {
  const cfg = getTableConfig(t);
  return cfg.columns
    .filter((c) => c.enumValues && c.enumValues.length > 0)
    .map((c) => ({ table: cfg.name, column: c.name, values: c.enumValues! }));
});

/**
 * Text columns whose names look like a state but are not constrained here: where a rate or candle
 * came from, an operator's free-text reason, the exchange market (from the imported data); and
 * the announcement's market text of a public subscription, the ledger's fund-flow type and account purpose and the audit log's action and target (typed in
 * code, no CHECK yet: docs/adr/0022-state-columns-text-with-check.md).
 */
const FREE_TEXT = new Set([
  'daily_candles.source',
  'fx_rates.source',
  'ledger_transactions.type',
  'ledger_transactions.ref_type',
  'ledger_accounts.purpose',
  'deposits.reason',
  'withdrawals.reason',
  'kyc_records.reason',
  'day_trade_applications.reason',
  'mentors.reason',
  'primary_applications.reason',
  'credit_loans.reason',
  'audit_log.reason',
  'audit_log.action',
  'audit_log.target_type',
  // The announcement's 發行市場 text as published (初上市, 上櫃增資, …).
  'ipo_offerings.market_type',
]);
const STATE_NAME = /(^|_)(status|state|kind|role|side|type|purpose|reason|session|by)$/;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const exec = (q: ReturnType<typeof sql>) => h.database.db.execute(q);
const rowsOf = (r: unknown): Record<string, unknown>[] =>
  Array.isArray(r) ? r : ((r as { rows: Record<string, unknown>[] }).rows ?? []);

/** SQLSTATE and constraint of a database error, searched along the chain of causes. */
function pgError(err: unknown): { code?: unknown; constraint?: unknown } {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 6; depth++) {
    const pe = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof pe.code === 'string' && /^[0-9A-Z]{5}$/.test(pe.code)) return pe;
    e = pe.cause;
  }
  return {};
}

describe('state columns', () => {
  it('the schema types every state-like text column as an enum', () => {
    const untyped = tables.flatMap((t) => {
      const cfg = getTableConfig(t);
      return cfg.columns
        .filter((c) => c.getSQLType() === 'text' && STATE_NAME.test(c.name) && !c.enumValues?.length)
        .map((c) => `${cfg.name}.${c.name}`)
        .filter((name) => !FREE_TEXT.has(name));
    });
    expect(untyped).toEqual([]);
    expect(enumColumns.map((c) => `${c.table}.${c.column}`)).toEqual(
      expect.arrayContaining([
        'orders.status',
        'deposits.status',
        'withdrawals.status',
        'kyc_records.status',
        'day_trade_applications.status',
        'idempotency_keys.state',
      ]),
    );
    expect(enumColumns.find((c) => c.table === 'orders' && c.column === 'status')?.values).toEqual(
      ORDER_STATUSES,
    );
  });

  it('each enum column has a CHECK listing exactly its contract values', async () => {
    const res = rowsOf(
      await exec(sql`
        select rel.relname as "table", con.conname as "name", pg_get_constraintdef(con.oid) as "def"
        from pg_constraint con join pg_class rel on rel.oid = con.conrelid
        where con.contype = 'c'`),
    );
    const byName = new Map(res.map((r) => [String(r.name), { table: String(r.table), def: String(r.def) }]));
    for (const c of enumColumns) {
      const name = `${c.table}_${c.column}_check`;
      const found = byName.get(name);
      expect(found, name).toBeDefined();
      expect(found!.table).toBe(c.table);
      expect(found!.def, name).toContain(c.column);
      const listed = [...found!.def.matchAll(/'([^']*)'/g)].map((m) => m[1]);
      expect(listed, name).toEqual([...c.values]);
    }
  });

  it('a real row accepts every listed value and refuses any other with 23514 naming the constraint', async () => {
    await h.register('0977000001');
    const uid = await h.userId('0977000001');
    const u1 = 'a'.repeat(32);
    const u2 = 'b'.repeat(32);
    // One valid row per table that has an enum column (foreign keys satisfied in order).
    const setup = [
      sql`insert into uploads (id, user_id, purpose, mime, bytes, sha256, received_sha256)
          values (${u1}, ${uid}, 'kycFront', 'image/png', 1, ${'0'.repeat(64)}, ${'0'.repeat(64)}),
                 (${u2}, ${uid}, 'kycBack', 'image/png', 1, ${'0'.repeat(64)}, ${'0'.repeat(64)})`,
      sql`insert into kyc_records (user_id, name, id_number, front_upload_id, back_upload_id)
          values (${uid}, 'Test', 'A123456789', ${u1}, ${u2})`,
      sql`insert into deposits (user_id, amount_minor) values (${uid}, 100)`,
      sql`insert into bank_cards (user_id, holder_name, card_number, bank_name, branch_name, branch_code, upi)
          values (${uid}, 'Test', '4000000000000002', 'Bank', 'Branch', '001', 'UPI1')`,
      sql`insert into withdrawals (user_id, card_id, amount_minor)
          select ${uid}, id, 100 from bank_cards where user_id = ${uid}`,
      sql`insert into orders (order_no, user_id, symbol, side, order_type, lots, shares, leverage, status)
          values ('ENUMTEST0001', ${uid}, '2330', 'long', 'market', 1, 1000, 1, 'pending')`,
      sql`insert into idempotency_keys (user_id, key, endpoint, body_sha256)
          values (${uid}, 'enum-test-key', 'x', ${'0'.repeat(64)})`,
      sql`insert into risk_events (user_id, kind) values (${uid}, 'marginCall')`,
      sql`insert into day_trade_applications (user_id) values (${uid})`,
      sql`insert into ipo_offerings (source, symbol, name, market_type, price_minor, shares_offered,
            shares_per_application, apply_start_day, listing_day, real_apply_start, real_draw_date, seed)
          values ('enum-test', '2330', 'Test', '上市增資', 10000, 1000, 1000, 0, 9, '2026-01-02', '2026-01-08', '00')`,
      sql`insert into ipo_applications (application_no, offering_id, user_id, status, shares, price_minor, payable_minor)
          select 'ENUM-1', id, ${uid}, 'unpaid', 1000, 10000, 10007000 from ipo_offerings where source = 'enum-test'`,
      sql`insert into mentors (user_id, min_follow_minor, profit_share_bps) values (${uid}, 100, 1000)`,
      sql`insert into follows (user_id, mentor_id, status, amount_minor, cash_minor, high_water_minor,
            stop_loss_bps, since_order_id, deadline_at)
          select ${uid}, id, 'following', 100, 100, 100, 4000, 0, now() from mentors where user_id = ${uid}`,
      sql`insert into follow_copies (follow_id, mentor_order_id, symbol, side, mentor_lots, lots,
            mentor_equity_minor, allocation_minor, status)
          select f.id, o.id, '2330', 'long', 1, 0, 100, 100, 'skipped'
          from follows f, orders o where f.user_id = ${uid} and o.order_no = 'ENUMTEST0001'`,
      sql`insert into primary_offerings (kind, symbol, name, price_minor, lots, start_day, end_day, listing_day, seed, commitment)
          values ('auction', '2330', 'Test', 10000, 20, 0, 2, 5, '00', 'c')`,
      sql`insert into auction_bids (bid_no, offering_id, user_id, price_minor, lots, deposit_minor)
          select 'ENUM-A1', id, ${uid}, 10000, 1, 0 from primary_offerings where seed = '00'`,
      sql`insert into primary_applications (application_no, offering_id, user_id, price_minor, lots, amount_minor)
          select 'ENUM-P1', id, ${uid}, 10000, 1, 10000000 from primary_offerings where seed = '00'`,
      sql`insert into password_resets (user_id) values (${uid})`,
      sql`insert into lending_orders (lending_no, user_id, order_id, symbol, shares, rate_bps, days, start_day)
          select 'ENUM-L1', ${uid}, id, '2330', 1000, 100, 5, 0 from orders where order_no = 'ENUMTEST0001'`,
      sql`insert into lending_allocations (lending_order_id, short_order_id, user_id, shares, start_day)
          select l.id, o.id, ${uid}, 1000, 0 from lending_orders l, orders o
          where l.lending_no = 'ENUM-L1' and o.order_no = 'ENUMTEST0001'`,
      sql`insert into points_entries (user_id, delta, reason) values (${uid}, 1, 'signIn')`,
      sql`insert into points_code_batches (kind, amount, expires_at, count, per_member_limit)
          values ('points', 1, now(), 1, 1)`,
      sql`insert into fee_coupons (user_id, kind, off_minor, source, expires_at)
          values (${uid}, 'amount', 100, 'grant', now())`,
      sql`insert into dividend_credits (order_id, user_id, symbol, ex_date, ex_day, side, shares,
            cash_dividend_micros, amount_minor, ledger_transaction_id)
          select id, ${uid}, '2330', '2025-06-12', 0, 'long', 1000, 4500020, 450002, 0
          from orders where order_no = 'ENUMTEST0001'`,
      sql`insert into news_articles (kind, title_tw, title_en, body_tw, body_en)
          values ('operator', 't', 't', 'b', 'b')`,
      sql`insert into credit_loans (user_id, principal_minor, annual_rate_bps, term_days) values (${uid}, 100000, 1825, 30)`,
      sql`insert into member_notices (user_id, kind, params) values (${uid}, 'kycApproved', '{}')`,
      sql`insert into corporate_action_runs (symbol, session, action_date, kind)
          values ('2330', 0, '2025-06-18', 'split')`,
      sql`insert into corporate_action_adjustments (order_id, user_id, symbol, session, action_date,
            kind, target, outcome, shares_before, shares_after)
          select id, ${uid}, '2330', 0, '2025-06-18', 'split', 'position', 'adjusted', 1000, 4000
          from orders where order_no = 'ENUMTEST0001'`,
      sql`insert into support_conversations (user_id) values (${uid})`,
      sql`insert into support_messages (conversation_id, sender, author_id, text)
          select id, 'member', ${uid}, 'hello' from support_conversations where user_id = ${uid}`,
    ];
    for (const q of setup) await exec(q);

    for (const c of enumColumns) {
      const name = `${c.table}_${c.column}_check`;
      const [{ n }] = rowsOf(await exec(sql`select count(*)::int as n from ${sql.identifier(c.table)}`)) as [
        { n: number },
      ];
      expect(n, `${c.table} has a row to update`).toBeGreaterThan(0);
      for (const v of c.values) {
        await exec(sql`update ${sql.identifier(c.table)} set ${sql.identifier(c.column)} = ${v}`);
      }
      let refused: unknown = null;
      try {
        await exec(sql`update ${sql.identifier(c.table)} set ${sql.identifier(c.column)} = 'notAState'`);
      } catch (err) {
        refused = err;
      }
      expect(refused, `${name} refuses notAState`).not.toBeNull();
      const pe = pgError(refused);
      expect(pe.code, name).toBe('23514');
      if (pe.constraint !== undefined) expect(pe.constraint).toBe(name);
    }
  });
});
