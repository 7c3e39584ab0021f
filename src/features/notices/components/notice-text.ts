/**
 * Words a notice in the reader's language: an announcement carries both languages; an account
 * notice is a kind and its params (contract/notices.ts), worded by `notices.kind.<kind>` with
 * money formatted from minor units (every `<name>Minor` param as `<name>`) and ratios from basis
 * points.
 */
import type { TFunction } from 'i18next';
import type { Notice } from '../../../../contract/notices';
import { formatMinor, langOf } from '../../../lib/format';

/** `{ title, body }` of a notice in `language` (tw | en). */
export function noticeText(n: Notice, t: TFunction, language: string): { title: string; body: string } {
  const lang = langOf(language);
  if (n.title && n.body) return { title: n.title[lang], body: n.body[lang] };
  const p = n.params;
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
    ratio: typeof p.ratioBps === 'number' ? `${(p.ratioBps / 100).toFixed(2)}%` : '',
    threshold: typeof p.thresholdBps === 'number' ? `${(p.thresholdBps / 100).toFixed(2)}%` : '',
    reason: typeof p.reason === 'string' ? p.reason : '—',
  };
  return {
    title: t(`notices.kind.${n.kind}.title`),
    body: t(`notices.kind.${n.kind}.body`, { ...values, interpolation: { escapeValue: false } }),
  };
}
