/**
 * Invitation codes (admin/invitations, admin/createInvitation, admin/disableInvitation): each code
 * with its owner, uses against its limit, expiry and state; a form to issue one (code, limit,
 * days and owner may be left empty: a random code, the server's defaults, the operator) and
 * Disable on the active ones. Each action writes an audit entry (invitation.create /
 * invitation.disable). The calls are injected here so only this tab carries them.
 * Testids: `invite-code`, `invite-max-uses`, `invite-days`, `invite-owner`, `invite-create`,
 * `invite-row-<code>`, `invite-state-<code>`, `invite-disable-<code>`, table `admin-invitations`.
 */
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReqOf, ResOf } from '../../contract/api';
import { formatDateTime } from '../lib/format';
import { TestIdInput } from '../ui/testid-input';
import { adminApi } from './admin-api';
import { AdminTable, type Column } from './admin-ui';

type Invitation = ResOf<'admin/invitations'>['items'][number];

const invitationsApi = adminApi.enhanceEndpoints({ addTagTypes: ['AdminInvitations'] }).injectEndpoints({
  endpoints: (b) => ({
    adminInvitations: b.query<ResOf<'admin/invitations'>, void>({
      query: () => ({ name: 'admin/invitations', body: {} }),
      providesTags: ['AdminInvitations'],
    }),
    createInvitation: b.mutation<ResOf<'admin/createInvitation'>, ReqOf<'admin/createInvitation'>>({
      query: (body) => ({ name: 'admin/createInvitation', body }),
      invalidatesTags: ['AdminInvitations', 'AdminAudit'],
    }),
    disableInvitation: b.mutation<ResOf<'admin/disableInvitation'>, ReqOf<'admin/disableInvitation'>>({
      query: (body) => ({ name: 'admin/disableInvitation', body }),
      invalidatesTags: ['AdminInvitations', 'AdminAudit'],
    }),
  }),
});

/** A typed whole number within [min, max], undefined when empty, null when invalid. */
function wholeOrEmpty(v: string, min: number, max: number): number | undefined | null {
  if (v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}

function CreateForm() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [days, setDays] = useState('');
  const [owner, setOwner] = useState('');
  const [create, { isLoading }] = invitationsApi.useCreateInvitationMutation();
  const uses = wholeOrEmpty(maxUses, 1, 100_000);
  const validDays = wholeOrEmpty(days, 1, 3_650);
  const codeOk = code.trim() === '' || /^[A-Za-z0-9]{4,32}$/.test(code.trim());
  const valid = uses !== null && validDays !== null && codeOk;
  const submit = async () => {
    if (!valid) return;
    const res = await create({
      ...(code.trim() ? { code: code.trim().toUpperCase() } : {}),
      ...(uses !== undefined ? { maxUses: uses } : {}),
      ...(validDays !== undefined ? { validDays } : {}),
      ...(owner.trim() ? { ownerAccount: owner.trim() } : {}),
    });
    if ('data' in res && res.data) {
      setCode('');
      setOwner('');
    }
  };
  return (
    <div className="admin-toolbar invite-form">
      <label>
        <span className="muted">{t('admin.invitations.code')}</span>
        <TestIdInput
          testId="invite-code"
          value={code}
          onChange={setCode}
          placeholder={t('admin.invitations.codeRandom')}
        />
      </label>
      <label>
        <span className="muted">{t('admin.invitations.maxUses')}</span>
        <TestIdInput
          testId="invite-max-uses"
          value={maxUses}
          onChange={setMaxUses}
          inputMode="numeric"
          placeholder={t('admin.invitations.defaultWhenEmpty')}
        />
      </label>
      <label>
        <span className="muted">{t('admin.invitations.days')}</span>
        <TestIdInput
          testId="invite-days"
          value={days}
          onChange={setDays}
          inputMode="numeric"
          placeholder={t('admin.invitations.defaultWhenEmpty')}
        />
      </label>
      <label>
        <span className="muted">{t('admin.invitations.owner')}</span>
        <TestIdInput
          testId="invite-owner"
          value={owner}
          onChange={setOwner}
          placeholder={t('admin.invitations.ownerSelf')}
        />
      </label>
      {!valid && <div className="field-error">{t('admin.invitations.invalid')}</div>}
      <Button
        size="small"
        color="primary"
        disabled={!valid}
        loading={isLoading}
        onClick={() => void submit()}
        data-testid="invite-create"
      >
        {t('admin.invitations.create')}
      </Button>
    </div>
  );
}

/** The invitation-codes tab. */
export function InvitationsPanel() {
  const { t } = useTranslation();
  const { data, isFetching, refetch } = invitationsApi.useAdminInvitationsQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const [disable, { isLoading: disabling }] = invitationsApi.useDisableInvitationMutation();

  const columns: Column<Invitation>[] = [
    {
      key: 'code',
      title: t('admin.invitations.code'),
      render: (r) => <strong className="mono">{r.code}</strong>,
    },
    { key: 'owner', title: t('admin.invitations.owner'), render: (r) => r.owner ?? '--' },
    {
      key: 'uses',
      title: t('admin.invitations.uses'),
      render: (r) => `${r.uses} / ${r.maxUses}`,
    },
    { key: 'expires', title: t('admin.invitations.expires'), render: (r) => formatDateTime(r.expiresAt) },
    {
      key: 'state',
      title: t('admin.col.status'),
      render: (r) => (
        <span data-testid={`invite-state-${r.code}`}>{t(`admin.invitations.state.${r.state}`)}</span>
      ),
    },
    {
      key: 'actions',
      title: t('admin.col.actions'),
      render: (r) =>
        r.state === 'disabled' ? null : (
          <Button
            size="mini"
            color="danger"
            loading={disabling}
            onClick={() => void disable({ code: r.code })}
            data-testid={`invite-disable-${r.code}`}
          >
            {t('admin.invitations.disable')}
          </Button>
        ),
    },
  ];

  return (
    <section className="admin-section">
      <CreateForm />
      <div className="admin-toolbar">
        <Button size="small" onClick={() => void refetch()} loading={isFetching} data-testid="invite-refresh">
          {t('admin.refresh')}
        </Button>
      </div>
      <AdminTable
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(r) => r.code}
        rowTestId={(r) => `invite-row-${r.code}`}
        testId="admin-invitations"
      />
    </section>
  );
}
