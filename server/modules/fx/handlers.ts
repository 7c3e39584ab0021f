/**
 * Currency exchange (product-spec §3 "Exchange", §5 "Exchange", §9 "Exchange currencies … to and
 * from US dollar. No extra fee"): user/rates, user/exchange, and the operator's admin/rates and
 * admin/saveRate (audited).
 *
 * user/exchange checks, in order: frozen account → 403 accountFrozen; the same currency → 422
 * sameCurrency; neither side USD → 400 parameterError; no rate for the non-USD side → 422
 * rateUnavailable; a result that rounds to 0 or exceeds Number.MAX_SAFE_INTEGER (checked exactly
 * before it becomes a number) → 400 parameterError; not enough available cash →
 * 422 insufficientBalance (nothing written).
 *
 * Pricing (rates from rate-source.ts, integer ppm per USD): buying USD the member pays `sellPpm`
 * per USD, selling USD the member receives `buyPpm` per USD; no fee. The amount received is
 * rounded down to the minor unit by contract/money.ts `convertMinorFloor`, so the platform never
 * pays out a fraction. The whole exchange is ONE ledger transaction of type `exchange`, balanced
 * per currency through the platform's `fx_conversion` accounts:
 *   member available(from) −a, platform fx_conversion(from) +a,
 *   platform fx_conversion(to) −b, member available(to) +b,
 * written with an `exchanges` row that records the rate applied, in one DB transaction. On a
 * replayed market an exchange also moves the member's net deposits (the withdrawal cap) with the
 * converted amount (funds/practice.ts), so it is decided in turn with the member's withdrawals.
 */
import { DateTime } from 'luxon';
import { eq } from 'drizzle-orm';
import { TWSE_ZONE } from '../../../contract/trading-session';
import { convertMinorFloorInRange } from '../../../contract/money';
import { exchanges, fxRates } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { audit } from '../common/audit';
import { ensureMemberAccounts, post } from '../ledger/ledger';
import { fxRateDto, rateSource } from './rate-source';
import { serialiseWithWithdrawals } from '../funds/practice';

export type ExchangeRow = typeof exchanges.$inferSelect;

/** An exchanges row as the API returns it. */
export const exchangeDto = (e: ExchangeRow) => ({
  id: e.id,
  from: e.fromCurrency,
  to: e.toCurrency,
  fromMinor: e.fromMinor,
  toMinor: e.toMinor,
  ratePpm: e.ratePpm,
  createdAt: e.createdAt.getTime(),
});

const USD = 'USD';

/** user/rates, user/exchange, admin/rates, admin/saveRate. */
export const fxHandlers: Pick<Handlers, 'user/rates' | 'user/exchange' | 'admin/rates' | 'admin/saveRate'> = {
  async 'user/rates'(_body, ctx) {
    requireUser(ctx);
    return rateSource(ctx.db).list();
  },

  async 'admin/rates'(_body, ctx) {
    return rateSource(ctx.db).list();
  },

  /** Sets a currency's buy/sell rate (source "operator", dated today in Asia/Taipei); audited. */
  async 'admin/saveRate'(body, ctx) {
    const op = requireUser(ctx);
    const asOf = DateTime.fromMillis(ctx.now(), { zone: TWSE_ZONE }).toISODate()!;
    return ctx.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(fxRates)
        .where(eq(fxRates.currency, body.currency))
        .for('update');
      const values = {
        currency: body.currency,
        buyPpm: body.buyPpm,
        sellPpm: body.sellPpm,
        source: 'operator',
        asOf,
        updatedAt: new Date(),
      };
      const [row] = await tx
        .insert(fxRates)
        .values(values)
        .onConflictDoUpdate({ target: fxRates.currency, set: values })
        .returning();
      const after = fxRateDto(row!);
      await audit(tx, {
        actorUserId: op.id,
        action: 'rate.update',
        targetType: 'fxRate',
        targetId: body.currency,
        before: before ? fxRateDto(before) : null,
        after,
      });
      return after;
    });
  },

  async 'user/exchange'(body, ctx) {
    const user = requireUser(ctx);
    if (user.frozen) throw fail('accountFrozen');
    const { from, to, amountMinor } = body;
    if (from === to) throw fail('sameCurrency');
    if (from !== USD && to !== USD) throw fail('parameterError');
    const other = from === USD ? to : from;
    const rate = await rateSource(ctx.db).get(other);
    if (!rate) throw fail('rateUnavailable');
    const buyingUsd = to === USD;
    const ratePpm = buyingUsd ? rate.sellPpm : rate.buyPpm;
    const toMinor = convertMinorFloorInRange(amountMinor, ratePpm, buyingUsd ? 'toUsd' : 'fromUsd');
    if (toMinor === null || toMinor <= 0) throw fail('parameterError');
    return ctx.db.transaction(async (tx) => {
      // Net deposits move with the exchange: decided in turn with the member's withdrawals.
      await serialiseWithWithdrawals(tx, ctx.config, user.id);
      await ensureMemberAccounts(tx, user.id, from);
      await ensureMemberAccounts(tx, user.id, to);
      const [row] = await tx
        .insert(exchanges)
        .values({
          userId: user.id,
          fromCurrency: from,
          toCurrency: to,
          fromMinor: amountMinor,
          toMinor,
          ratePpm,
        })
        .returning();
      await post(tx, {
        type: 'exchange',
        refType: 'exchange',
        refId: row!.id,
        actorUserId: user.id,
        postings: [
          { account: { userId: user.id, purpose: 'available', currency: from }, amountMinor: -amountMinor },
          { account: { platform: 'fx_conversion', currency: from }, amountMinor },
          { account: { platform: 'fx_conversion', currency: to }, amountMinor: -toMinor },
          { account: { userId: user.id, purpose: 'available', currency: to }, amountMinor: toMinor },
        ],
      });
      return exchangeDto(row!);
    });
  },
};
