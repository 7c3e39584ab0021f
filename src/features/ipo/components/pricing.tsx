/**
 * How an offering's price sits on the replayed market (contract/ipo.ts IPO_PRICINGS;
 * docs/adr/0004-ipo-offers-on-the-replay.md): the short label a list row carries and the detail's
 * lines — the replayed close the price was set from, the discount and where it comes from (the
 * real announcement's own, or the rule where the data cannot give it), and the source
 * announcement once, labelled as such.
 */
import { useTranslation } from 'react-i18next';
import type { IpoOffering } from '../../../../contract/ipo';
import { formatMinor } from '../../../lib/format';
import { KvLine } from '../../../ui/kv-line';

/** Basis points as a percentage text with 2 decimals, exactly ("4727" → "47.27"). */
const pct = (bps: number) => formatMinor(bps);

/** One line under a row: the discount and whether it is the announcement's or the rule's. */
export function pricingLabel(o: IpoOffering, t: (k: string, v?: Record<string, unknown>) => string): string {
  if (o.pricing === 'announcement' || o.pricing === 'rule')
    return t(`ipo.pricing.${o.pricing}`, { pct: pct(o.discountBps ?? 0) });
  return t(`ipo.pricing.${o.pricing}`);
}

/**
 * The offer price, or when it will be set (from a close not replayed yet): in full on the
 * detail, in two words on a row (`short`).
 */
export function priceText(
  o: IpoOffering,
  t: (k: string, v?: Record<string, unknown>) => string,
  short = false,
): string {
  if (o.priceMinor !== null) return formatMinor(o.priceMinor);
  return short ? t('ipo.priceSoon') : t('ipo.priceLater', { date: o.applyStart });
}

/** The detail's pricing lines and the source announcement. */
export function PricingLines({ o }: { o: IpoOffering }) {
  const { t } = useTranslation();
  const src = o.source;
  const fromClose = o.pricing === 'announcement' || o.pricing === 'rule';
  return (
    <>
      {fromClose && (
        <KvLine
          label={o.referenceDate ? t('ipo.reference', { date: o.referenceDate }) : t('ipo.referenceLater')}
          value={o.referenceMinor === null ? '' : formatMinor(o.referenceMinor)}
          testId="ipo-reference"
        />
      )}
      <KvLine label={t('ipo.pricingLabel')} value={pricingLabel(o, t)} testId="ipo-pricing" />
      <p className="muted small" data-testid="ipo-pricing-note">
        {t(`ipo.pricingNote.${o.pricing}`, {
          price: src ? formatMinor(src.priceMinor) : '',
          close: src?.closeMinor != null ? formatMinor(src.closeMinor) : '',
          closeDate: src?.closeDate ?? '',
          pct: pct(o.discountBps ?? 0),
        })}
      </p>
      {src && (
        <KvLine
          label={t('ipo.source')}
          value={t('ipo.sourceValue', { date: src.applyStart, price: formatMinor(src.priceMinor) })}
          testId="ipo-source"
        />
      )}
    </>
  );
}
