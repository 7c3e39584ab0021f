/**
 * Words a notice in the reader's language: an announcement carries both languages; an account
 * notice is a kind and its params (contract/notices.ts), worded by `notices.kind.<kind>` with
 * money formatted from minor units (every `<name>Minor` param as `<name>`), ratios from basis
 * points, and a skipped copy's reason by `follow.skipWhy.<reason>`.
 */
import type { TFunction } from 'i18next';
import type { Notice } from '../../../../contract/notices';
import { formatMinor, langOf } from '../../../lib/format';
import { formatBps } from '../../../../contract/money';

/** `{ title, body }` of a notice in `language` (tw | en). */
export function noticeText(n: Notice, t: TFunction, language: string): { title: string; body: string } {
  const lang = langOf(language);
  if (n.title && n.body) return { title: n.title[lang], body: n.body[lang] };
  const p = n.params;
  const pct = (bps: unknown) => (typeof bps === 'number' ? formatBps(bps) : '');
  // Every money param `<name>Minor` is also given formatted as `<name>` (amountMinor → amount).
  const money = Object.fromEntries(
    Object.entries(p)
      .filter(([k, v]) => k.endsWith('Minor') && typeof v === 'number')
      .map(([k, v]) => [k.slice(0, -'Minor'.length), formatMinor(v as number)]),
  );
  const values = {
    ...p,
    ...money,
    amount: typeof p.amountMinor === 'number' ? formatMinor(p.amountMinor) : '',
    ratio: pct(p.ratioBps),
    threshold: pct(p.thresholdBps),
    maintenance: pct(p.maintenanceBps),
    line: pct(p.lineBps),
    reason: typeof p.reason === 'string' ? p.reason : '—',
    // copySkipped: the side and the skip's reason in the reader's language.
    sideText: typeof p.side === 'string' ? t(`side.${p.side}`) : '',
    why:
      typeof p.copyReason === 'string'
        ? t(`follow.skipWhy.${p.copyReason}`, {
            amount: typeof p.amountMinor === 'number' ? formatMinor(p.amountMinor) : '',
            refusal:
              typeof p.refusal === 'string' && p.refusal
                ? t(`errors.${p.refusal}`, { defaultValue: p.refusal })
                : '',
          })
        : '',
  };
  return {
    title: t(`notices.kind.${n.kind}.title`),
    body: t(`notices.kind.${n.kind}.${bodyKey(n)}`, { ...values, interpolation: { escapeValue: false } }),
  };
}

/**
 * The body's key: a margin call raised straight below maintenance says it is sold at once, one
 * without a deadline (written before calls had one) keeps its plain wording; a forced sale names
 * its cause.
 */
function bodyKey(n: Notice): string {
  const p = n.params;
  if (n.kind === 'marginCall') return p.immediate === 1 ? 'bodyImmediate' : p.saleDate ? 'body' : 'bodyPlain';
  if (n.kind === 'forcedSale') return p.cause === 'deadline' ? 'bodyDeadline' : 'bodyMaintenance';
  return 'body';
}
