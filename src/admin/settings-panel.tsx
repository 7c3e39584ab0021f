/**
 * Site settings (admin/config, admin/saveConfig; contract/admin.ts SITE_SETTINGS): title and logo
 * (served by common/config), deposit hours (HH:MM Asia/Taipei, weekdays only, closed on exchange
 * holidays) and the withdrawal limits (typed in NT$, stored as minor units). Each setting saves on
 * its own. Testids: `config-<name>` (the input or switch), `config-save-<name>`.
 */
import { Button, Switch } from 'antd-mobile';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SITE_SETTINGS } from '../../contract/admin';
import { TestIdInput } from '../ui/testid-input';
import { adminApi, useAdminConfigQuery, useAdminDispatch, useSaveConfigMutation } from './admin-api';
import { minorToDecimal, parseAmountToMinor } from '../../contract/money';

type SettingName = (typeof SITE_SETTINGS)[number];
type Kind = 'text' | 'time' | 'bool' | 'money';

const KIND: Record<SettingName, Kind> = {
  title: 'text',
  logo: 'text',
  depositOpen: 'time',
  depositClose: 'time',
  depositWeekdaysOnly: 'bool',
  depositHolidaysClosed: 'bool',
  withdrawMinMinor: 'money',
  withdrawMaxMinor: 'money',
};

const HHMM_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The stored value shown in the field (money as NT$ decimals). */
function toField(kind: Kind, stored: string): string {
  if (kind === 'money' && /^\d+$/.test(stored)) return minorToDecimal(Number(stored));
  return stored;
}

/** The value to store for a field, or null when it is not valid. */
export function settingValue(kind: Kind, field: string): string | null {
  const v = field.trim();
  switch (kind) {
    case 'text':
      return v.length >= 1 && v.length <= 300 ? v : null;
    case 'time':
      return HHMM_RE.test(v) ? v : null;
    case 'bool':
      return v === 'true' || v === 'false' ? v : null;
    case 'money': {
      const minor = parseAmountToMinor(v);
      return minor === null ? null : String(minor);
    }
  }
}

function SettingRow({ name, stored }: { name: SettingName; stored: string }) {
  const { t } = useTranslation();
  const kind = KIND[name];
  const [draft, setDraft] = useState<string | null>(null);
  const [save, { isLoading }] = useSaveConfigMutation();
  const dispatch = useAdminDispatch();
  const field = draft ?? toField(kind, stored);
  const value = settingValue(kind, field);
  const changed = draft !== null && value !== stored;
  const invalid = draft !== null && value === null;

  let control: ReactNode;
  if (kind === 'bool')
    control = (
      <Switch
        checked={field === 'true'}
        onChange={(on) => setDraft(String(on))}
        data-testid={`config-${name}`}
      />
    );
  else
    control = (
      <TestIdInput
        testId={`config-${name}`}
        inputMode={kind === 'money' ? 'decimal' : kind === 'time' ? 'numeric' : undefined}
        placeholder={kind === 'time' ? '09:30' : undefined}
        value={field}
        onChange={setDraft}
        maxLength={300}
        className="setting-input"
      />
    );

  return (
    <div className="setting-row" data-testid={`config-row-${name}`}>
      <div className="setting-label">
        <div>{t(`admin.setting.${name}`)}</div>
        <div className="muted small">{t(`admin.settingHint.${name}`)}</div>
      </div>
      <div className="setting-control">
        {control}
        {name === 'logo' && value && (
          <img className="logo-preview" src={value} alt={t('admin.setting.logo')} />
        )}
        {invalid && <div className="field-error">{t(`admin.settingInvalid.${kind}`)}</div>}
      </div>
      <Button
        size="small"
        color="primary"
        disabled={!changed || value === null}
        loading={isLoading}
        onClick={async () => {
          if (value === null) return;
          const list = (await save({ name, value })).data;
          if (!list) return;
          // The answer is the whole list: show it at once, then the field shows the stored value.
          dispatch(adminApi.util.upsertQueryData('adminConfig', undefined, list));
          setDraft(null);
        }}
        data-testid={`config-save-${name}`}
      >
        {t('admin.save')}
      </Button>
    </div>
  );
}

export function SettingsPanel() {
  const { t } = useTranslation();
  const { data, isFetching, refetch } = useAdminConfigQuery(undefined, { refetchOnMountOrArgChange: true });
  const stored = new Map((data ?? []).map((i) => [i.name, i.value]));
  return (
    <section className="admin-section">
      <div className="admin-toolbar">
        <Button size="small" onClick={() => void refetch()} loading={isFetching} data-testid="config-refresh">
          {t('admin.refresh')}
        </Button>
      </div>
      {data && (
        <div className="admin-card settings" data-testid="admin-settings">
          {SITE_SETTINGS.map((name) => (
            <SettingRow key={name} name={name} stored={stored.get(name) ?? ''} />
          ))}
        </div>
      )}
    </section>
  );
}
