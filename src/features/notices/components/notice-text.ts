/**
 * Words a notice in the reader's language: an announcement carries both languages; an account
 * notice is a kind and its params (contract/notices.ts), worded by `notices.kind.<kind>` with
 * money formatted from minor units and ratios from basis points (a skipped copy's reason by
 * `follow.skipWhy.<reason>`).
 */
import type { TFunction } from 'i18next';
import type { Notice } from '../../../../contract/notices';
import { formatMinor, langOf } from '../../../lib/format';

/** `{ title, body }` of a notice in `language` (tw | en). */
export function noticeText(n: Notice, t: TFunction, language: string): { title: string; body: string } {
  const lang = langOf(language);
  if (n.title && n.body) return { title: n.title[lang], body: n.body[lang] };
  const p = n.params;
  const values = {
    ...p,
    amount: typeof p.amountMinor === 'number' ? formatMinor(p.amountMinor) : '',
    ratio: typeof p.ratioBps === 'number' ? `${(p.ratioBps / 100).toFixed(2)}%` : '',
    threshold: typeof p.thresholdBps === 'number' ? `${(p.thresholdBps / 100).toFixed(2)}%` : '',
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
    body: t(`notices.kind.${n.kind}.body`, { ...values, interpolation: { escapeValue: false } }),
  };
}
