/**
 * Users (admin/users), searchable by account: role, KYC status, available TWD, the account flags
 * of product-spec §6 as switches (each change asks for a reason, then admin/setUserFlags), and the
 * funds-password lock with an unlock action (admin/unlockFundsPassword).
 * Testids: `user-search` (input), `user-search-go`, `user-row-<id>`, `user-flag-<flag>-<id>`,
 * `user-unlock-<id>`, `user-ledger-<id>`, then the dialog's `flag-reason-box` / `flag-confirm`.
 */
import { Button, SearchBar, Switch, Tag, type SearchBarRef } from 'antd-mobile';
import { useLayoutEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMinor } from '../lib/format';
import {
  ADMIN_PAGE_SIZE,
  adminApi,
  replaceRow,
  useAdminDispatch,
  useAdminUsersQuery,
  useSetUserFlagsMutation,
  useUnlockFundsPasswordMutation,
  type AdminUserRow,
} from './admin-api';
import { AdminTable, Money, Pager, ReasonDialog, type Column } from './admin-ui';

/** The switchable account flags, in the spec's order. */
export const USER_FLAGS = ['disabled', 'frozen', 'loginBanned', 'withdrawBanned', 'tradeBanned'] as const;
export type UserFlag = (typeof USER_FLAGS)[number];

interface FlagChange {
  user: AdminUserRow;
  flag: UserFlag;
  value: boolean;
}

/** The account flags of one user as switches; a flip is reported to `onChange` (a reason is asked next). */
function FlagSwitches({
  u,
  change,
  onChange,
}: {
  u: AdminUserRow;
  change: FlagChange | null;
  onChange: (c: FlagChange) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flags">
      {USER_FLAGS.map((f) => (
        <label key={f} className={`flag ${u[f] ? 'flag-on' : ''}`}>
          <Switch
            checked={u[f]}
            loading={change?.user.id === u.id && change.flag === f}
            onChange={(value) => onChange({ user: u, flag: f, value })}
            data-testid={`user-flag-${f}-${u.id}`}
            style={{ '--height': '22px', '--width': '40px' }}
          />
          <span>{t(`admin.flag.${f}`)}</span>
        </label>
      ))}
    </div>
  );
}

/** The funds-password lock of one user, with an unlock button while locked. */
function LockCell({
  u,
  unlocking,
  onUnlock,
}: {
  u: AdminUserRow;
  unlocking: boolean;
  onUnlock: () => Promise<void>;
}) {
  const { t } = useTranslation();
  return u.fundsPasswordLocked ? (
    <div className="actions">
      <Tag color="danger" data-testid={`user-locked-${u.id}`}>
        {t('admin.locked')}
      </Tag>
      <Button
        size="mini"
        color="primary"
        fill="outline"
        loading={unlocking}
        onClick={onUnlock}
        data-testid={`user-unlock-${u.id}`}
      >
        {t('admin.unlock')}
      </Button>
    </div>
  ) : (
    <span className="muted">{t('admin.notLocked')}</span>
  );
}

/** What the users table's cells need: the pending flag change, unlock state and actions. */
interface ColumnDeps {
  change: FlagChange | null;
  setChange: (c: FlagChange) => void;
  unlockingId: number | undefined;
  onUnlock: (u: AdminUserRow) => Promise<void>;
  onShowLedger: ((userId: number) => void) | undefined;
}

/** The users table's columns (the ledger column only when `onShowLedger` is given). */
function userColumns(t: TFunction, d: ColumnDeps): Column<AdminUserRow>[] {
  const columns: Column<AdminUserRow>[] = [
    { key: 'id', title: t('admin.col.id'), render: (u) => u.id },
    { key: 'account', title: t('admin.col.account'), render: (u) => u.account },
    { key: 'role', title: t('admin.col.role'), render: (u) => t(`role.${u.role}`) },
    {
      key: 'kyc',
      title: t('admin.col.kyc'),
      render: (u) => (
        <span className={`status status-${u.kycStatus}`} data-testid={`user-kyc-${u.id}`}>
          {t(`kyc.${u.kycStatus}`)}
        </span>
      ),
    },
    {
      key: 'available',
      title: t('admin.col.available'),
      num: true,
      render: (u) => <Money currency="TWD">{formatMinor(u.availableMinor)}</Money>,
    },
    {
      key: 'flags',
      wide: true,
      title: t('admin.col.flags'),
      render: (u) => <FlagSwitches u={u} change={d.change} onChange={d.setChange} />,
    },
    {
      key: 'fundsPassword',
      title: t('admin.col.fundsPassword'),
      render: (u) => <LockCell u={u} unlocking={d.unlockingId === u.id} onUnlock={() => d.onUnlock(u)} />,
    },
    { key: 'created', title: t('admin.col.created'), render: (u) => formatDateTime(u.createdAt) },
  ];
  const onShowLedger = d.onShowLedger;
  if (onShowLedger)
    columns.push({
      key: 'ledger',
      title: t('admin.col.ledger'),
      render: (u) => (
        <Button
          size="mini"
          fill="none"
          color="primary"
          onClick={() => onShowLedger(u.id)}
          data-testid={`user-ledger-${u.id}`}
        >
          {t('admin.showLedger')}
        </Button>
      ),
    });
  return columns;
}

/** The search box (typed `draft`, applied by `search`), refresh and the total count. */
function UsersToolbar({
  draft,
  setDraft,
  search,
  refresh,
  refreshing,
  total,
}: {
  draft: string;
  setDraft: (v: string) => void;
  search: (v: string) => void;
  refresh: () => void;
  refreshing: boolean;
  total: number;
}) {
  const { t } = useTranslation();
  const searchRef = useRef<SearchBarRef>(null);
  useLayoutEffect(() => {
    searchRef.current?.nativeElement?.setAttribute('data-testid', 'user-search');
  }, []);
  return (
    <div className="admin-toolbar">
      <SearchBar
        ref={searchRef}
        value={draft}
        onChange={setDraft}
        placeholder={t('admin.searchAccount')}
        onSearch={search}
        onClear={() => search('')}
      />
      <Button size="small" color="primary" onClick={() => search(draft)} data-testid="user-search-go">
        {t('admin.search')}
      </Button>
      <Button size="small" onClick={refresh} loading={refreshing} data-testid="user-refresh">
        {t('admin.refresh')}
      </Button>
      <span className="muted">{t('admin.total', { n: total })}</span>
    </div>
  );
}

/**
 * The users screen: search by account, the paged table (admin/users), flag changes with a reason
 * (admin/setUserFlags) and funds-password unlock (admin/unlockFundsPassword); `onShowLedger`, when
 * given, adds a column that opens a user's ledger.
 */
export function UsersList({ onShowLedger }: { onShowLedger?: (userId: number) => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [draft, setDraft] = useState('');
  const [page, setPage] = useState(1);
  const { data, isFetching, refetch } = useAdminUsersQuery({ q, page }, { refetchOnMountOrArgChange: true });
  const [setFlags] = useSetUserFlagsMutation();
  const [unlock, unlockState] = useUnlockFundsPasswordMutation();
  const [change, setChange] = useState<FlagChange | null>(null);
  const dispatch = useAdminDispatch();
  /** Shows an action's result in place at once (the list refetches after it). */
  const patchUser = (id: number, update: (u: AdminUserRow) => AdminUserRow) =>
    dispatch(
      adminApi.util.updateQueryData('adminUsers', { q, page }, (d) => {
        const u = d.items.find((x) => x.id === id);
        if (u) replaceRow(d, update(u));
      }),
    );

  const search = (v: string) => {
    setQ(v.trim());
    setPage(1);
  };

  const columns = userColumns(t, {
    change,
    setChange,
    unlockingId: unlockState.isLoading ? unlockState.originalArgs?.id : undefined,
    onUnlock: async (u) => {
      const res = await unlock({ id: u.id });
      if ('data' in res) patchUser(u.id, (x) => ({ ...x, fundsPasswordLocked: false }));
    },
    onShowLedger,
  });

  const flagName = change ? t(`admin.flag.${change.flag}`) : '';
  return (
    <section className="admin-section" data-testid="admin-users">
      <UsersToolbar
        draft={draft}
        setDraft={setDraft}
        search={search}
        refresh={() => void refetch()}
        refreshing={isFetching}
        total={data?.total ?? 0}
      />
      <AdminTable
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(u) => u.id}
        rowTestId={(u) => `user-row-${u.id}`}
        testId="admin-users-table"
      />
      <Pager page={page} pageSize={ADMIN_PAGE_SIZE} total={data?.total ?? 0} onChange={setPage} />
      <ReasonDialog
        open={change !== null}
        title={t(change?.value ? 'admin.flagOnTitle' : 'admin.flagOffTitle', { flag: flagName })}
        prompt={change ? t('admin.flagPrompt', { account: change.user.account }) : undefined}
        confirmText={t('common.confirm')}
        danger={change?.value ?? false}
        testIdPrefix="flag"
        onCancel={() => setChange(null)}
        onSubmit={async (reason) => {
          if (!change) return false;
          const res = await setFlags({ id: change.user.id, [change.flag]: change.value, reason });
          const row = res.data;
          if (!row) return false;
          patchUser(row.id, () => row);
          return true;
        }}
      />
    </section>
  );
}
