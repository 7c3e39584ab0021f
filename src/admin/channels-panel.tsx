/**
 * Deposit channels (admin/channels, admin/saveChannel): the list and a form to create or edit one.
 * Minimum and maximum are typed as decimals in the channel's currency and converted exactly to
 * minor units (contract/money.ts `parseAmountToMinor`); the channel password is kept,
 * set or removed (the contract's omitted / new value / ''). Members never see it: customer service
 * gives it to them (the member's deposit screen says so), and the form reminds the operator.
 * Testids: `channel-new`, `channel-row-<id>`, `channel-edit-<id>`, the form's `channel-name`,
 * `channel-account-name`, `channel-account-number`, `channel-bank`, `channel-branch`,
 * `channel-currency` (a <select>), `channel-min`, `channel-max`, `channel-password-keep|set|remove`,
 * `channel-password`, `channel-enabled`, `channel-save`, `channel-cancel`.
 */
import { Button, Form, Switch, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CURRENCIES } from '../../contract/constants';
import type { ReqOf } from '../../contract/api';
import { formatMinor } from '../lib/format';
import { Segmented } from '../ui/segmented';
import { TestIdInput } from '../ui/testid-input';
import {
  adminApi,
  useAdminChannelsQuery,
  useAdminDispatch,
  useSaveChannelMutation,
  type AdminChannel,
} from './admin-api';
import { AdminTable, Money, type Column } from './admin-ui';
import { minorToDecimal, parseAmountToMinor } from '../../contract/money';

type PasswordMode = 'keep' | 'set' | 'remove';

interface ChannelFields {
  name: string;
  accountName: string;
  accountNumber: string;
  bankName: string;
  branch: string;
  currency: (typeof CURRENCIES)[number];
  min: string;
  max: string;
  password?: string;
  enabled: boolean;
}

const ACCOUNT_NUMBER_RE = /^\d{6,19}$/;

/** The request for admin/saveChannel from the form's fields; null when an amount is not exact. */
export function channelRequest(
  id: number | undefined,
  v: ChannelFields,
  mode: PasswordMode,
): ReqOf<'admin/saveChannel'> | null {
  const minMinor = parseAmountToMinor(v.min);
  const maxMinor = parseAmountToMinor(v.max);
  if (minMinor === null || maxMinor === null || minMinor > maxMinor) return null;
  return {
    ...(id !== undefined ? { id } : {}),
    name: v.name.trim(),
    accountName: v.accountName.trim(),
    accountNumber: v.accountNumber.trim(),
    bankName: v.bankName.trim(),
    branch: v.branch.trim(),
    currency: v.currency,
    minMinor,
    maxMinor,
    ...(mode === 'set' ? { password: v.password ?? '' } : mode === 'remove' ? { password: '' } : {}),
    enabled: v.enabled,
  };
}

/** The form's starting values: the channel's (amounts as decimals of its currency), or blanks for a new one. */
function initialFields(channel: AdminChannel | null): ChannelFields {
  return channel
    ? {
        name: channel.name,
        accountName: channel.accountName,
        accountNumber: channel.accountNumber,
        bankName: channel.bankName,
        branch: channel.branch,
        currency: (CURRENCIES as readonly string[]).includes(channel.currency)
          ? (channel.currency as ChannelFields['currency'])
          : 'TWD',
        min: minorToDecimal(channel.minMinor),
        max: minorToDecimal(channel.maxMinor),
        enabled: channel.enabled,
      }
    : {
        name: '',
        accountName: '',
        accountNumber: '',
        bankName: '',
        branch: '',
        currency: 'TWD',
        min: '',
        max: '',
        enabled: true,
      };
}

/** The channel's fields: names, account, bank and branch, currency and the min/max amounts (decimals). */
function ChannelFieldsGrid() {
  const { t } = useTranslation();
  const required = (msg: string) => [{ required: true, whitespace: true, message: msg }];
  const amountRule = {
    validator: async (_: unknown, v: string) => {
      if (v && parseAmountToMinor(v) === null) throw new Error(t('admin.amountInvalid'));
    },
  };

  return (
    <div className="form-grid">
      <Form.Item name="name" label={t('admin.col.channelName')} rules={required(t('admin.required'))}>
        <TestIdInput testId="channel-name" maxLength={60} />
      </Form.Item>
      <Form.Item name="accountName" label={t('admin.col.accountName')} rules={required(t('admin.required'))}>
        <TestIdInput testId="channel-account-name" maxLength={60} />
      </Form.Item>
      <Form.Item
        name="accountNumber"
        label={t('admin.col.accountNumber')}
        rules={[
          { required: true, message: t('admin.required') },
          { pattern: ACCOUNT_NUMBER_RE, message: t('admin.accountNumberInvalid') },
        ]}
      >
        <TestIdInput testId="channel-account-number" inputMode="numeric" maxLength={19} />
      </Form.Item>
      <Form.Item name="bankName" label={t('admin.col.bank')} rules={required(t('admin.required'))}>
        <TestIdInput testId="channel-bank" maxLength={60} />
      </Form.Item>
      <Form.Item name="branch" label={t('admin.col.branch')} rules={required(t('admin.required'))}>
        <TestIdInput testId="channel-branch" maxLength={60} />
      </Form.Item>
      <Form.Item name="currency" label={t('admin.col.currency')}>
        <select className="native-select" data-testid="channel-currency">
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </Form.Item>
      <Form.Item
        name="min"
        label={t('admin.col.min')}
        rules={[{ required: true, message: t('admin.required') }, amountRule]}
      >
        <TestIdInput testId="channel-min" inputMode="decimal" placeholder="1000.00" />
      </Form.Item>
      <Form.Item
        name="max"
        label={t('admin.col.max')}
        rules={[{ required: true, message: t('admin.required') }, amountRule]}
      >
        <TestIdInput testId="channel-max" inputMode="decimal" placeholder="1000000.00" />
      </Form.Item>
    </div>
  );
}

/** The channel password choice (keep, set or remove; keep or set when none) and the new password. */
function PasswordFields({
  channel,
  mode,
  setMode,
}: {
  channel: AdminChannel | null;
  mode: PasswordMode;
  setMode: (m: PasswordMode) => void;
}) {
  const { t } = useTranslation();
  const passwordOptions = channel?.hasPassword
    ? [
        { value: 'keep' as const, label: t('admin.passwordKeep'), testId: 'channel-password-keep' },
        { value: 'set' as const, label: t('admin.passwordChange'), testId: 'channel-password-set' },
        { value: 'remove' as const, label: t('admin.passwordRemove'), testId: 'channel-password-remove' },
      ]
    : [
        { value: 'keep' as const, label: t('admin.passwordNone'), testId: 'channel-password-keep' },
        { value: 'set' as const, label: t('admin.passwordSet'), testId: 'channel-password-set' },
      ];

  return (
    <>
      <Form.Item label={t('admin.col.password')} description={t('admin.channelPasswordHint')}>
        <Segmented<PasswordMode> value={mode} onChange={setMode} options={passwordOptions} />
      </Form.Item>
      {mode === 'set' && (
        <Form.Item
          name="password"
          label={t('admin.newPassword')}
          rules={[{ required: true, whitespace: true, message: t('admin.required') }]}
        >
          <TestIdInput testId="channel-password" maxLength={64} autoComplete="new-password" />
        </Form.Item>
      )}
    </>
  );
}

function ChannelForm({ channel, onDone }: { channel: AdminChannel | null; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChannelFields>();
  const [mode, setMode] = useState<PasswordMode>('keep');
  const [save, { isLoading }] = useSaveChannelMutation();
  const dispatch = useAdminDispatch();
  const initial = initialFields(channel);

  const onFinish = async (v: ChannelFields) => {
    const body = channelRequest(channel?.id, v, mode);
    if (!body) {
      form.setFields([{ name: 'max', errors: [t('admin.minAboveMax')] }]);
      return;
    }
    const saved = (await save(body)).data;
    if (!saved) return;
    // Show the saved channel at once (the list refetches after it).
    dispatch(
      adminApi.util.updateQueryData('adminChannels', undefined, (list) => {
        const i = list.findIndex((c) => c.id === saved.id);
        if (i >= 0) list[i] = saved;
        else list.push(saved);
      }),
    );
    onDone();
  };

  return (
    <div className="admin-card channel-form" data-testid="channel-form">
      <h3>{channel ? t('admin.editChannel', { name: channel.name }) : t('admin.newChannel')}</h3>
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={onFinish}
        footer={
          <div className="form-actions">
            <Button onClick={onDone} data-testid="channel-cancel">
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="primary" loading={isLoading} data-testid="channel-save">
              {t('admin.save')}
            </Button>
          </div>
        }
      >
        <ChannelFieldsGrid />
        <PasswordFields channel={channel} mode={mode} setMode={setMode} />
        <Form.Item name="enabled" label={t('admin.col.enabled')} valuePropName="checked">
          <Switch data-testid="channel-enabled" />
        </Form.Item>
      </Form>
    </div>
  );
}

export function ChannelsPanel() {
  const { t } = useTranslation();
  const { data, isFetching, refetch } = useAdminChannelsQuery(undefined, { refetchOnMountOrArgChange: true });
  /** undefined: no form; null: a new channel; else the channel being edited. */
  const [editing, setEditing] = useState<AdminChannel | null | undefined>(undefined);

  const columns: Column<AdminChannel>[] = [
    { key: 'id', title: t('admin.col.id'), render: (c) => c.id },
    { key: 'name', title: t('admin.col.channelName'), render: (c) => c.name },
    { key: 'accountName', title: t('admin.col.accountName'), render: (c) => c.accountName },
    {
      key: 'accountNumber',
      title: t('admin.col.accountNumber'),
      render: (c) => <span className="mono">{c.accountNumber}</span>,
    },
    { key: 'bank', title: t('admin.col.bank'), render: (c) => `${c.bankName} · ${c.branch}` },
    {
      key: 'limits',
      title: t('admin.col.limits'),
      num: true,
      render: (c) => (
        <Money currency={c.currency}>{`${formatMinor(c.minMinor)} – ${formatMinor(c.maxMinor)}`}</Money>
      ),
    },
    {
      key: 'password',
      title: t('admin.col.password'),
      render: (c) => (c.hasPassword ? t('admin.passwordYes') : t('admin.passwordNo')),
    },
    {
      key: 'enabled',
      title: t('admin.col.enabled'),
      render: (c) =>
        c.enabled ? <Tag color="success">{t('admin.enabled')}</Tag> : <Tag>{t('admin.disabledChannel')}</Tag>,
    },
    {
      key: 'actions',
      title: t('admin.col.actions'),
      render: (c) => (
        <Button size="mini" onClick={() => setEditing(c)} data-testid={`channel-edit-${c.id}`}>
          {t('common.edit')}
        </Button>
      ),
    },
  ];

  return (
    <section className="admin-section">
      <div className="admin-toolbar">
        <Button size="small" color="primary" onClick={() => setEditing(null)} data-testid="channel-new">
          {t('admin.newChannel')}
        </Button>
        <Button
          size="small"
          onClick={() => void refetch()}
          loading={isFetching}
          data-testid="channel-refresh"
        >
          {t('admin.refresh')}
        </Button>
        <span className="muted">{t('admin.total', { n: data?.length ?? 0 })}</span>
      </div>
      {editing !== undefined && (
        <ChannelForm key={editing?.id ?? 'new'} channel={editing} onDone={() => setEditing(undefined)} />
      )}
      <AdminTable
        columns={columns}
        rows={data ?? []}
        rowKey={(c) => c.id}
        rowTestId={(c) => `channel-row-${c.id}`}
        testId="admin-channels"
      />
    </section>
  );
}
