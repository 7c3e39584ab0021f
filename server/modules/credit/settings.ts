/**
 * The operator's credit settings (table credit_settings, one row with id 1): annual rate (bps),
 * term (trading days) and the score → limit bands. Until an operator saves them the defaults
 * contract/credit.ts CREDIT_DEFAULTS apply. A loan keeps the rate and term of the day it was
 * applied for; the bands apply at once to every member's limit.
 */
import { eq } from 'drizzle-orm';
import { CREDIT_DEFAULTS, creditSettingsSchema, type CreditSettings } from '../../../contract/credit';
import type { Db, Tx } from '../../db/client';
import { creditSettings } from '../../db/schema';
import { audit } from '../common/audit';

const ROW_ID = 1;

/** The settings in force (the stored row, else the defaults). */
export async function creditSettingsOf(db: Db | Tx): Promise<CreditSettings> {
  const [row] = await db.select().from(creditSettings).where(eq(creditSettings.id, ROW_ID));
  if (!row) return CREDIT_DEFAULTS;
  return creditSettingsSchema.parse({
    annualRateBps: row.annualRateBps,
    termDays: row.termDays,
    bands: row.bands,
  });
}

/** Saves the settings (validated by the contract's schema at the edge) with an audit entry `config.update` (target creditSettings). */
export async function saveCreditSettings(
  db: Db,
  s: CreditSettings,
  operatorId: number,
  nowMs: number,
): Promise<CreditSettings> {
  return db.transaction(async (tx) => {
    const before = await creditSettingsOf(tx);
    const values = {
      annualRateBps: s.annualRateBps,
      termDays: s.termDays,
      bands: s.bands,
      updatedBy: operatorId,
      updatedAt: new Date(nowMs),
    };
    await tx
      .insert(creditSettings)
      .values({ id: ROW_ID, ...values })
      .onConflictDoUpdate({ target: creditSettings.id, set: values });
    const after = await creditSettingsOf(tx);
    await audit(tx, {
      actorUserId: operatorId,
      action: 'config.update',
      targetType: 'creditSettings',
      targetId: ROW_ID,
      before,
      after,
    });
    return after;
  });
}
