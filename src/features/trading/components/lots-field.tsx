/**
 * The order ticket's lots field: − / typed number / +. What it shows is always what the ticket
 * computes with: a typed number above the largest order or below one lot is replaced at once by
 * the bound it is clamped to, and a hint says so ("最多 499 張"). (antd-mobile's Stepper clamps
 * its value but keeps showing the typed text while focused, so the field read 600 while the
 * preview computed 499.)
 */
import { Button, Input, type InputRef } from 'antd-mobile';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** What a typed lots text becomes: the text to show, the lots it means, and the bound it hit. */
export interface LotsInput {
  /** The text the field shows: digits only, no leading zeros, never beyond a bound. */
  text: string;
  /** The lots computed from it; null while the field is empty. */
  lots: number | null;
  /** The bound the typed number was clamped to, if any. */
  clamped: 'min' | 'max' | null;
}

/**
 * Reads a typed lots text (full-width digits and separators allowed: NFKC, then digits only) and
 * clamps it to [min, max] whole lots. Pure.
 *
 * @example clampLots('600', 1, 499) → { text: '499', lots: 499, clamped: 'max' }
 * @example clampLots('0', 1, 499) → { text: '1', lots: 1, clamped: 'min' }
 * @example clampLots('', 1, 499) → { text: '', lots: null, clamped: null }
 */
export function clampLots(text: string, min: number, max: number): LotsInput {
  const digits = text.normalize('NFKC').replace(/\D/g, '');
  if (digits === '') return { text: '', lots: null, clamped: null };
  // Compared as digits, not as a number: a pasted 30-digit string is still "above the maximum".
  const n = digits.length > 15 ? Number.POSITIVE_INFINITY : Number(digits);
  if (n > max) return { text: String(max), lots: max, clamped: 'max' };
  if (n < min) return { text: String(min), lots: min, clamped: 'min' };
  return { text: String(n), lots: n, clamped: null };
}

/**
 * Lots stepper. `value` is the ticket's lots (0 while the field is empty); `onChange` receives the
 * clamped lots, or null when the member empties the field (restored to `min` on blur).
 */
export function LotsField({
  testId,
  ariaLabel,
  value,
  min,
  max,
  onChange,
}: {
  testId: string;
  ariaLabel: string;
  value: number;
  min: number;
  max: number;
  onChange: (lots: number | null) => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<InputRef>(null);
  const [text, setText] = useState(value > 0 ? String(value) : '');
  const [hint, setHint] = useState<'min' | 'max' | null>(null);
  useLayoutEffect(() => {
    const input = ref.current?.nativeElement;
    input?.setAttribute('data-testid', testId);
    input?.setAttribute('aria-label', ariaLabel);
  }, [testId, ariaLabel]);
  // On the <input> itself (as props, antd-mobile also copies aria-* onto its role-less wrapper).
  useLayoutEffect(() => {
    const input = ref.current?.nativeElement;
    if (!input) return;
    input.setAttribute('role', 'spinbutton');
    input.setAttribute('aria-valuemin', String(min));
    input.setAttribute('aria-valuemax', String(max));
    if (value > 0) input.setAttribute('aria-valuenow', String(value));
    else input.removeAttribute('aria-valuenow');
  }, [min, max, value]);
  // A value set from outside (a refusal's "use N lots") replaces the text.
  useEffect(() => {
    setText((cur) => ((clampLots(cur, min, max).lots ?? 0) === value ? cur : value > 0 ? String(value) : ''));
  }, [value, min, max]);

  const apply = (next: LotsInput) => {
    setText(next.text);
    setHint(next.clamped);
    onChange(next.lots);
  };
  const step = (d: number) => {
    const base = value > 0 ? value : min;
    apply(clampLots(String(Math.max(0, base + d)), min, max));
  };
  return (
    <div className="lots-field">
      <div className="lots-stepper">
        <Button
          fill="none"
          className="lots-step"
          disabled={value > 0 && value <= min}
          onClick={() => step(-1)}
          aria-label={t('order.lotsDecrease')}
          data-testid={`${testId}-minus`}
        >
          −
        </Button>
        <Input
          ref={ref}
          className="lots-input"
          value={text}
          inputMode="numeric"
          onChange={(v) => apply(clampLots(v, min, max))}
          onBlur={() => {
            if (text === '') apply({ text: String(min), lots: min, clamped: null });
          }}
        />
        <Button
          fill="none"
          className="lots-step"
          disabled={value >= max}
          onClick={() => step(1)}
          aria-label={t('order.lotsIncrease')}
          data-testid={`${testId}-plus`}
        >
          +
        </Button>
      </div>
      {hint && (
        <div className="field-hint" role="status" data-testid={`${testId}-hint`}>
          {t(hint === 'max' ? 'order.lotsMax' : 'order.lotsMin', { n: hint === 'max' ? max : min })}
        </div>
      )}
    </div>
  );
}
