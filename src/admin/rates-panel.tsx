/**
 * Exchange rates against USD (admin/rates, admin/saveRate). A rate is typed as a decimal
 * ("31.475") and converted exactly to parts per million by string parsing (contract/money.ts);
 * the contract requires sell ≥ buy > 0. Every wallet currency but USD has a row, rated or not.
 * Testids: `rate-row-<ccy>`, `rate-edit-<ccy>`, `rate-buy-<ccy>`, `rate-sell-<ccy>`,
 * `rate-save-<ccy>`, `rate-cancel-<ccy>`, `rate-error-<ccy>`.
 */
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CURRENCIES, type Currency } from '../../contract/constants';
import { TestIdInput } from '../ui/testid-input';
import {
  adminApi,
  useAdminDispatch,
  useAdminRatesQuery,
  useSaveRateMutation,
  type AdminRate,
} from './admin-api';
import { AdminTable, type Column } from './admin-ui';
import { MAX_RATE_PPM } from '../../contract/admin';
import { parseRateToPpm, ppmToDecimal } from '../../contract/money';

type RatedCurrency = Exclude<Currency, 'USD'>;
const RATED: RatedCurrency[] = CURRENCIES.filter((c): c is RatedCurrency => c !== 'USD');

interface Row {
  currency: RatedCurrency;
  rate: AdminRate | null;
}

/** Validation of a typed pair: the error key, or the ppm values to send. */
export function checkRatePair(
  buy: string,
  sell: string,
): { error: 'rateInvalid' | 'sellBelowBuy' } | { buyPpm: number; sellPpm: number } {
  const buyPpm = parseRateToPpm(buy, MAX_RATE_PPM);
  const sellPpm = parseRateToPpm(sell, MAX_RATE_PPM);
  if (buyPpm === null || sellPpm === null) return { error: 'rateInvalid' };
  if (sellPpm < buyPpm) return { error: 'sellBelowBuy' };
  return { buyPpm, sellPpm };
}

function RateEditor({ row, onDone }: { row: Row; onDone: () => void }) {
  const { t } = useTranslation();
  const c = row.currency;
  const [buy, setBuy] = useState(row.rate ? ppmToDecimal(row.rate.buyPpm) : '');
  const [sell, setSell] = useState(row.rate ? ppmToDecimal(row.rate.sellPpm) : '');
  const [save, { isLoading }] = useSaveRateMutation();
  const dispatch = useAdminDispatch();
  const check = checkRatePair(buy, sell);
  const error = buy && sell && 'error' in check ? t(`admin.${check.error}`) : null;
  const submit = async () => {
    if ('error' in check) return;
    const saved = (await save({ currency: c, buyPpm: check.buyPpm, sellPpm: check.sellPpm })).data;
    if (!saved) return;
    // Show the new rate at once (the list refetches after it).
    dispatch(
      adminApi.util.updateQueryData('adminRates', undefined, (list) => {
        const i = list.findIndex((r) => r.currency === saved.currency);
        if (i >= 0) list[i] = saved;
        else list.push(saved);
      }),
    );
    onDone();
  };
  return (
    <div className="rate-editor">
      <label>
        <span className="muted">{t('admin.col.buy')}</span>
        <TestIdInput testId={`rate-buy-${c}`} value={buy} onChange={setBuy} inputMode="decimal" />
      </label>
      <label>
        <span className="muted">{t('admin.col.sell')}</span>
        <TestIdInput testId={`rate-sell-${c}`} value={sell} onChange={setSell} inputMode="decimal" />
      </label>
      {error && (
        <div className="field-error" data-testid={`rate-error-${c}`}>
          {error}
        </div>
      )}
      <div className="actions">
        <Button size="mini" onClick={onDone} data-testid={`rate-cancel-${c}`}>
          {t('common.cancel')}
        </Button>
        <Button
          size="mini"
          color="primary"
          disabled={'error' in check}
          loading={isLoading}
          onClick={() => void submit()}
          data-testid={`rate-save-${c}`}
        >
          {t('admin.save')}
        </Button>
      </div>
    </div>
  );
}

export function RatesPanel() {
  const { t } = useTranslation();
  const { data, isFetching, refetch } = useAdminRatesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [editing, setEditing] = useState<RatedCurrency | null>(null);
  const rows: Row[] = RATED.map((currency) => ({
    currency,
    rate: data?.find((r) => r.currency === currency) ?? null,
  }));

  const columns: Column<Row>[] = [
    { key: 'currency', title: t('admin.col.currency'), render: (r) => <strong>{r.currency}</strong> },
    {
      key: 'rate',
      title: t('admin.col.rate'),
      render: (r) =>
        editing === r.currency ? (
          <RateEditor row={r} onDone={() => setEditing(null)} />
        ) : r.rate ? (
          <span className="rate-pair mono">
            <span data-testid={`rate-buy-value-${r.currency}`}>{ppmToDecimal(r.rate.buyPpm)}</span>
            <span className="muted"> / </span>
            <span data-testid={`rate-sell-value-${r.currency}`}>{ppmToDecimal(r.rate.sellPpm)}</span>
          </span>
        ) : (
          <span className="muted">{t('admin.noRate')}</span>
        ),
    },
    { key: 'source', title: t('admin.col.source'), render: (r) => r.rate?.source ?? '--' },
    { key: 'asOf', title: t('admin.col.asOf'), render: (r) => r.rate?.asOf ?? '--' },
    {
      key: 'actions',
      title: t('admin.col.actions'),
      render: (r) =>
        editing === r.currency ? null : (
          <Button size="mini" onClick={() => setEditing(r.currency)} data-testid={`rate-edit-${r.currency}`}>
            {t('common.edit')}
          </Button>
        ),
    },
  ];

  return (
    <section className="admin-section">
      <div className="admin-toolbar">
        <Button size="small" onClick={() => void refetch()} loading={isFetching} data-testid="rate-refresh">
          {t('admin.refresh')}
        </Button>
        <span className="muted">{t('admin.rateHint')}</span>
      </div>
      <AdminTable
        columns={columns}
        rows={rows}
        rowKey={(r) => r.currency}
        rowTestId={(r) => `rate-row-${r.currency}`}
        testId="admin-rates"
      />
    </section>
  );
}
