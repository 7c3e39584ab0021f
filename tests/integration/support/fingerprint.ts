/**
 * A byte-for-byte fingerprint of database tables (row count and md5 of every row's text form, in
 * a stable order), to prove that refused requests wrote nothing; and a listing of the files under
 * a directory, to prove that refused uploads left no file behind.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';

/** Every table of the schema whose content a refused request must not change. */
export const ALL_TABLES = [
  'users',
  'sessions',
  'invitation_codes',
  'site_config',
  'instruments',
  'daily_candles',
  'watchlist',
  'ledger_accounts',
  'ledger_transactions',
  'ledger_postings',
  'deposits',
  'orders',
  'user_security',
  'uploads',
  'kyc_records',
  'bank_cards',
  'deposit_channels',
  'withdrawals',
  'fx_rates',
  'exchanges',
  'idempotency_keys',
  'audit_log',
  'search_history',
  'ipo_offerings',
  'ipo_applications',
  'primary_offerings',
  'auction_bids',
  'primary_applications',
  'block_trade_passwords',
  'ipo_draws',
  'points_accounts',
  'points_entries',
  'points_code_batches',
  'points_codes',
  'sign_ins',
  'account_levels',
  'fee_coupons',
  'ex_rights_events',
  'dividend_credits',
  'news_articles',
  'news_instruments',
  'equity_snapshots',
  'notices',
  'notice_reads',
  'member_notices',
  'support_conversations',
  'support_messages',
  'member_preferences',
  'install_secrets',
] as const;

/** Rows of a raw query, on either driver (node-postgres answers {rows}, PGlite an array-like). */
export function rowsOf<T>(r: unknown): T[] {
  return (r as { rows?: T[] }).rows ?? (r as T[]);
}

/**
 * count:md5 per table. `columns` narrows a table to some columns (a projection), for tables where
 * a refused request legitimately changes a counter (see the caller).
 */
export async function fingerprint(
  db: Db,
  tables: readonly string[] = ALL_TABLES,
  columns: Record<string, string[]> = {},
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of tables) {
    const from = columns[t] ? `(select ${columns[t].join(', ')} from ${t}) x` : `${t} x`;
    const r = await db.execute(
      sql.raw(
        `select count(*)::text || ':' || coalesce(md5(string_agg(x::text, ',' order by x::text)), '') as f from ${from}`,
      ),
    );
    out[t] = rowsOf<{ f: string }>(r)[0]!.f;
  }
  return out;
}

/** Relative paths and sizes of every file under `dir` (empty when it does not exist). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: string[];
    try {
      entries = readdirSync(d);
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else out.push(`${path.relative(dir, p)}:${s.size}`);
    }
  };
  walk(dir);
  return out.sort();
}
