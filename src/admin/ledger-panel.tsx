/**
 * The ledger: the reconciliation result (admin/reconcile: every cached balance recomputed from
 * postings, every transaction balanced per currency, no forbidden negative balance) and the
 * recent transactions with their postings (admin/ledger), optionally for one user.
 * Testids: `reconcile-run`, `reconcile-status` (data-clean="true|false"), `ledger-user-id`,
 * `ledger-filter`, `ledger-clear`, `ledger-tx-<id>`.
 */
import { Button, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMinor, formatSignedMinor } from '../lib/format';
import { TestIdInput } from '../ui/testid-input';
import {
  useAdminLedgerInfiniteQuery,
  useReconcileQuery,
  type LedgerTransaction,
  type Reconciliation,
} from './admin-api';
import { InfiniteTable, type Column } from './admin-ui';

function ReconcileResult({ r }: { r: Reconciliation }) {
  const { t } = useTranslation();
  const diffs = r.balanceDifferences.length + r.unbalancedTransactions.length + r.negativeBalances.length;
  return (
    <div
      className={`reconcile ${r.clean ? 'reconcile-clean' : 'reconcile-dirty'}`}
      data-testid="reconcile-status"
      data-clean={String(r.clean)}
    >
      <div className="reconcile-head">
        <Tag color={r.clean ? 'success' : 'danger'} fill="solid">
          {r.clean ? t('admin.reconcileClean') : t('admin.reconcileDirty', { n: diffs })}
        </Tag>
        <span className="muted">
          {t('admin.reconcileChecked', { accounts: r.accounts, transactions: r.transactions })}
        </span>
      </div>
      {r.balanceDifferences.length > 0 && (
        <div className="reconcile-list">
          <h4>{t('admin.balanceDifferences')}</h4>
          <ul>
            {r.balanceDifferences.map((d) => (
              <li key={d.accountId} className="mono">
                {t('admin.balanceDifference', {
                  id: d.accountId,
                  cached: formatMinor(d.cached),
                  computed: formatMinor(d.fromPostings),
                })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {r.unbalancedTransactions.length > 0 && (
        <div className="reconcile-list">
          <h4>{t('admin.unbalancedTransactions')}</h4>
          <ul>
            {r.unbalancedTransactions.map((u) => (
              <li key={`${u.transactionId}-${u.currency}`} className="mono">
                {t('admin.unbalancedTransaction', {
                  id: u.transactionId,
                  currency: u.currency,
                  sum: formatSignedMinor(u.sum),
                })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {r.negativeBalances.length > 0 && (
        <div className="reconcile-list">
          <h4>{t('admin.negativeBalances')}</h4>
          <ul>
            {r.negativeBalances.map((n) => (
              <li key={n.accountId} className="mono">
                {t('admin.negativeBalance', { id: n.accountId, balance: formatMinor(n.balance) })}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function Postings({ tx }: { tx: LedgerTransaction }) {
  return (
    <div className="postings">
      {tx.postings.map((p, i) => (
        <div key={`${p.accountId}-${i}`} className="posting">
          <span className="posting-account">{p.account}</span>
          <span className={`posting-amount mono ${p.amountMinor < 0 ? 'neg' : 'pos'}`}>
            {formatSignedMinor(p.amountMinor)} <span className="ccy">{p.currency}</span>
          </span>
        </div>
      ))}
    </div>
  );
}

/** The reconciliation card and the ledger's transactions, for user `userId` when set (`onUserId` sets or clears it). */
export function LedgerPanel({ userId, onUserId }: { userId?: number; onUserId: (id?: number) => void }) {
  const { t, i18n } = useTranslation();
  const reconcile = useReconcileQuery(undefined, { refetchOnMountOrArgChange: true });
  const ledger = useAdminLedgerInfiniteQuery({ userId }, { refetchOnMountOrArgChange: true });
  const [draft, setDraft] = useState(userId ? String(userId) : '');
  const draftId = /^\d{1,10}$/.test(draft.trim()) ? Number(draft.trim()) : null;

  const typeLabel = (type: string) => (i18n.exists(`fundFlow.${type}`) ? t(`fundFlow.${type}`) : type);
  const columns: Column<LedgerTransaction>[] = [
    { key: 'id', title: t('admin.col.id'), render: (x) => x.id },
    { key: 'time', title: t('admin.col.time'), render: (x) => formatDateTime(x.createdAt) },
    { key: 'type', title: t('admin.col.type'), render: (x) => typeLabel(x.type) },
    { key: 'ref', title: t('admin.col.ref'), render: (x) => <span className="mono">{x.ref ?? '--'}</span> },
    {
      key: 'actor',
      title: t('admin.col.by'),
      render: (x) => (x.actorUserId === null ? '--' : `#${x.actorUserId}`),
    },
    { key: 'postings', wide: true, title: t('admin.col.postings'), render: (x) => <Postings tx={x} /> },
  ];

  return (
    <section className="admin-section">
      <div className="admin-card">
        <div className="admin-toolbar">
          <h3 className="card-title">{t('admin.reconcile')}</h3>
          <Button
            size="small"
            color="primary"
            loading={reconcile.isFetching}
            onClick={() => void reconcile.refetch()}
            data-testid="reconcile-run"
          >
            {t('admin.reconcileRun')}
          </Button>
        </div>
        {reconcile.data && <ReconcileResult r={reconcile.data} />}
      </div>

      <InfiniteTable kind="ledger" list={ledger} columns={columns} rowTestId={(x) => `ledger-tx-${x.id}`}>
        <TestIdInput
          testId="ledger-user-id"
          className="user-id-input"
          inputMode="numeric"
          value={draft}
          onChange={setDraft}
          placeholder={t('admin.userIdPlaceholder')}
          onEnterPress={() => onUserId(draftId ?? undefined)}
        />
        <Button
          size="small"
          color="primary"
          disabled={draft.trim() !== '' && draftId === null}
          onClick={() => onUserId(draftId ?? undefined)}
          data-testid="ledger-filter"
        >
          {t('admin.filter')}
        </Button>
        {userId !== undefined && (
          <Button
            size="small"
            onClick={() => {
              setDraft('');
              onUserId(undefined);
            }}
            data-testid="ledger-clear"
          >
            {t('admin.clearFilter')}
          </Button>
        )}
      </InfiniteTable>
    </section>
  );
}
