/**
 * Near matches of deposit receipts for the operator's review (contract/admin.ts
 * adminDepositSchema.receiptNearMatches): other deposits, any member and state, whose receipt's
 * 256-bit perceptual hash (identity/receipt-fingerprint.ts) is at most RECEIPT_NEAR_DISTANCE_MAX bits
 * from this one's and whose picture is not the same (those are receiptMatches already).
 *
 * One query per page: the page's deposits as a VALUES list, the distance as PostgreSQL's
 * `bit_count(a # b)` over bit(256) (PostgreSQL 14+; PGlite is 17), at most RECEIPT_MATCHES_MAX per
 * deposit, closest first. Every deposit with a hash is compared: a linear scan, cheap while the
 * deposits number in the tens of thousands.
 */
import { sql } from 'drizzle-orm';
import { RECEIPT_MATCHES_MAX, RECEIPT_NEAR_DISTANCE_MAX } from '../../../contract/admin';
import type { Db, Tx } from '../../db/client';

type Status = 'pending' | 'approved' | 'rejected';
/** Another deposit whose receipt looks like this one's: `distance` in bits. */
export type ReceiptNearMatch = {
  id: number;
  userId: number;
  account: string;
  status: Status;
  distance: number;
};

/** The deposit fields the comparison needs. */
type Probe = { id: number; receiptSha256: string | null; receiptPhash: string | null };

type Row = { for_id: number; id: number; user_id: number; account: string; status: Status; distance: number };

/** For each given deposit with a perceptual hash, its near matches (possibly none: no entry). */
export async function receiptNearMatchesOf(
  db: Db | Tx,
  rows: Probe[],
): Promise<Map<number, ReceiptNearMatch[]>> {
  const probes = rows.filter((r) => r.receiptPhash);
  const out = new Map<number, ReceiptNearMatch[]>();
  if (!probes.length) return out;
  const values = sql.join(
    probes.map((p) => sql`(${p.id}::int, ${p.receiptSha256}::text, ${p.receiptPhash}::text)`),
    sql`, `,
  );
  const res = await db.execute(sql`
    select * from (
      select p.id as for_id, d.id, d.user_id, u.account, d.status, m.distance,
        row_number() over (partition by p.id order by m.distance, d.id desc) as n
      from (values ${values}) as p(id, sha, phash)
      join deposits d on d.receipt_phash is not null and d.id <> p.id
        and d.receipt_sha256 is distinct from p.sha
      cross join lateral (
        select bit_count(('x' || d.receipt_phash)::bit(256) # ('x' || p.phash)::bit(256))::int as distance
      ) m
      join users u on u.id = d.user_id
      where m.distance <= ${RECEIPT_NEAR_DISTANCE_MAX}
    ) ranked
    where n <= ${RECEIPT_MATCHES_MAX}
    order by for_id, distance, id desc`);
  const found = ((res as { rows?: unknown[] }).rows ?? (res as unknown as unknown[])) as Row[];
  for (const r of found) {
    const list = out.get(Number(r.for_id)) ?? [];
    list.push({
      id: Number(r.id),
      userId: Number(r.user_id),
      account: r.account,
      status: r.status,
      distance: Number(r.distance),
    });
    out.set(Number(r.for_id), list);
  }
  return out;
}
