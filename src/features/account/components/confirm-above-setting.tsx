/**
 * The confirmation threshold on /user/setting: "Ask me to confirm orders, cancels and exchanges
 * above NT$…", an amount in NT$ (up to two decimals; 0: always ask) saved with
 * user/savePreferences (contract/account.ts preferencesSchema: TWD minor units, 0 to
 * CONFIRM_ABOVE_MAX_MINOR). Shows the saved amount, or the default NT$100,000 for a member who
 * never saved one; what each action counts is in the hint.
 */
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONFIRM_ABOVE_MAX_MINOR } from '../../../../contract/confirm-above';
import { toMinor } from '../../../../contract/money';
import { usePreferencesQuery, useSavePreferencesMutation } from '../api/preferences-api';
import { formatMinor } from '../../../lib/format';
import { showToast } from '../../../ui/toast';
import { TestIdInput } from '../../../ui/testid-input';

/** The typed NT$ amount → minor units, or null when it is not 0 … the maximum with ≤ 2 decimals. */
export function parseThreshold(text: string): number | null {
  const s = text.replace(/,/g, '').trim();
  if (!s) return null;
  try {
    const v = toMinor(s);
    return v >= 0 && v <= CONFIRM_ABOVE_MAX_MINOR ? v : null;
  } catch {
    return null;
  }
}

export function ConfirmAboveSetting() {
  const { t } = useTranslation();
  const { data } = usePreferencesQuery();
  const [save, { isLoading }] = useSavePreferencesMutation();
  /** What the member typed; null until they type (the field shows the saved amount). */
  const [typed, setTyped] = useState<string | null>(null);
  const saved = data?.confirmAboveMinor;
  // The saved amount grouped as everywhere else ("100,000.00"); parseThreshold takes the commas.
  const text = typed ?? (saved !== undefined ? formatMinor(saved) : '');
  const parsed = parseThreshold(text);
  const invalid = typed !== null && parsed === null;

  const onSave = async () => {
    if (parsed === null) return;
    const res = await save({ confirmAboveMinor: parsed });
    if ('data' in res && res.data) {
      setTyped(null);
      showToast({ icon: 'success', content: t('settings.confirmAbove.saved') });
    }
  };

  return (
    <section className="card" data-testid="setting-confirm-above" data-saved={saved}>
      <div className="card-title">{t('settings.confirmAbove.title')}</div>
      <label className="confirm-above-label" htmlFor="confirm-above-input">
        {t('settings.confirmAbove.label')}
      </label>
      <div className="confirm-above-row">
        <span className="confirm-above-currency">{t('common.currency')}</span>
        <TestIdInput
          testId="setting-confirm-above-input"
          id="confirm-above-input"
          className="confirm-above-input"
          inputMode="decimal"
          value={text}
          onChange={setTyped}
          placeholder={t('settings.confirmAbove.placeholder')}
        />
        <Button
          size="small"
          color="primary"
          loading={isLoading}
          disabled={parsed === null || parsed === saved}
          onClick={() => void onSave()}
          data-testid="setting-confirm-above-save"
        >
          {t('settings.confirmAbove.save')}
        </Button>
      </div>
      {invalid && (
        <div className="field-error" role="alert" data-testid="setting-confirm-above-error">
          {t('settings.confirmAbove.invalid', { max: formatMinor(CONFIRM_ABOVE_MAX_MINOR) })}
        </div>
      )}
      <p className="muted small">{t('settings.confirmAbove.hint')}</p>
    </section>
  );
}
