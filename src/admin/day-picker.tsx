/**
 * A business-day field of the console's offering form. Offerings are scheduled on market-clock
 * business days (admin/saveOffering takes their numbers), but an operator thinks in dates: the
 * field shows the chosen day's replayed date (luxon, in the console's language) and how far from
 * today it is, and opens a picker (antd-mobile Picker) of the next business days by date
 * (admin/offerings `days`). The form's value stays the day number as a string.
 * Testids: `<testId>` on the field's button.
 */
import { Picker } from 'antd-mobile';
import { DateTime } from 'luxon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

/** One business day and the replayed date (YYYY-MM-DD, '' on a feed without dates) it shows. */
export interface BusinessDay {
  day: number;
  date: string;
}

/**
 * "2025/04/14 (週一) · 3 個營業日後" / "Mon 14 Apr 2025 · in 3 business days": the date in the
 * language `lang` ('en' or the Chinese default), then its distance from business day `today`.
 * A day without a date shows its distance only.
 */
export function formatBusinessDay(d: BusinessDay, today: number, lang: string, t: TFunction): string {
  const offset = d.day - today;
  const rel =
    offset === 0
      ? t('admin.offerings.dayToday')
      : offset > 0
        ? t('admin.offerings.dayAhead', { count: offset })
        : t('admin.offerings.dayBehind', { count: -offset });
  const dt = d.date ? DateTime.fromISO(d.date) : null;
  if (!dt?.isValid) return rel;
  const date =
    lang === 'en'
      ? dt.setLocale('en-GB').toFormat('ccc d LLL yyyy')
      : dt.setLocale('zh-TW').toFormat('yyyy/MM/dd（ccc）');
  return `${date} · ${rel}`;
}

/**
 * The field (a Form.Item child: `value` / `onChange` from the form). `days` are the pickable
 * business days; a value outside them (an edited offering's day) is offered too.
 */
export function DayField({
  value,
  onChange,
  days,
  today,
  testId,
  title,
}: {
  value?: string;
  onChange?: (v: string) => void;
  days: BusinessDay[];
  today: number;
  testId: string;
  title: string;
}) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const chosen = Number(value);
  const options = value && !days.some((d) => d.day === chosen) ? [{ day: chosen, date: '' }, ...days] : days;
  const label = (d: BusinessDay) => formatBusinessDay(d, today, i18n.language, t);
  const current = options.find((d) => d.day === chosen);
  return (
    <>
      <button type="button" className="admin-day-field" data-testid={testId} onClick={() => setOpen(true)}>
        {current ? label(current) : t('admin.offerings.pickDay')}
      </button>
      <Picker
        visible={open}
        title={title}
        columns={[options.map((d) => ({ label: label(d), value: String(d.day) }))]}
        value={value ? [value] : []}
        onClose={() => setOpen(false)}
        onConfirm={(v) => {
          if (v[0] != null) onChange?.(String(v[0]));
        }}
        confirmText={t('common.confirm')}
        cancelText={t('common.cancel')}
      />
    </>
  );
}
