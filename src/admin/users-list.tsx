/** Users (admin/users), searchable by account. */
import { Button, SearchBar } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminUsersQuery } from '../api/api';
import { formatDateTime, formatMinor } from '../lib/format';
import { NoData } from '../ui/no-data';

export function UsersList() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const { data, isFetching, refetch } = useAdminUsersQuery({ q, page: 1 });
  const items = data?.items ?? [];
  return (
    <section className="admin-section" data-testid="admin-users">
      <div className="admin-toolbar">
        <SearchBar
          placeholder={t('admin.searchAccount')}
          onSearch={(v) => setQ(v.trim())}
          onClear={() => setQ('')}
        />
        <Button size="small" onClick={() => void refetch()} loading={isFetching}>
          {t('admin.refresh')}
        </Button>
        <span className="muted">{t('admin.total', { n: data?.total ?? 0 })}</span>
      </div>
      {items.length === 0 ? (
        <NoData />
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t('admin.col.id')}</th>
              <th>{t('admin.col.account')}</th>
              <th>{t('admin.col.role')}</th>
              <th className="num">{t('admin.col.available')}</th>
              <th>{t('admin.col.flags')}</th>
              <th>{t('admin.col.created')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((u) => (
              <tr key={u.id} data-testid={`admin-user-${u.id}`}>
                <td>{u.id}</td>
                <td>{u.account}</td>
                <td>{t(`role.${u.role}`)}</td>
                <td className="num">{formatMinor(u.availableMinor)}</td>
                <td>
                  {[u.disabled ? t('admin.disabled') : null, u.frozen ? t('admin.frozen') : null]
                    .filter(Boolean)
                    .join(' · ')}
                </td>
                <td>{formatDateTime(u.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
