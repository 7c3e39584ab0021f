/**
 * /common/dividend3?symbol=: one stock's dividend history: its ex-rights/ex-dividend events in
 * the exchange data (newest first) and, for a logged-in member, the dividends credited to or
 * charged on the member's positions in it (+ received on a long, − paid on a short).
 */
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { selectLoggedIn } from '../../../api/session';
import { changeColor } from '../../../lib/colors';
import { formatSignedMinor, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { useDividendHistoryQuery } from '../api/dividends-api';
import { DividendNav, EventRow, formatDividend } from '../components/parts';
import '../dividends.css';

const SYMBOL = /^[0-9A-Z]{4,6}$/;

export function DividendHistoryPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const [params] = useSearchParams();
  const symbol = params.get('symbol') ?? '';
  const valid = SYMBOL.test(symbol);
  const { data, isError } = useDividendHistoryQuery(symbol, { skip: !valid || !loggedIn });
  return (
    <Page
      title={
        data ? `${instrumentName(data, langOf(i18n.language))} ${data.symbol}` : t('dividend.historyTitle')
      }
    >
      <DividendNav current="history" />
      {!loggedIn ? (
        <LoginPrompt />
      ) : !valid || isError ? (
        <NoData />
      ) : !data ? null : (
        <>
          <section className="card" data-testid="dividend-credits">
            <div className="card-title-row">
              <h3 className="card-title">{t('dividend.myCredits')}</h3>
              <span
                className="nav-link"
                role="link"
                onClick={() => navigate(`/market/marketDetail?symbol=${data.symbol}`)}
              >
                {t('dividend.quote')}
              </span>
            </div>
            {data.credits.length === 0 ? (
              <div className="dividend-note muted small">{t('dividend.noCredits')}</div>
            ) : (
              data.credits.map((c) => (
                <div className="dividend-row" key={c.id} data-testid={`dividend-credit-${c.id}`}>
                  <div className="dividend-row-head">
                    <span>
                      {c.exDate} · {t(`dividend.side.${c.side}`)} ·{' '}
                      {t('dividend.shares', { count: c.shares })}
                    </span>
                    <span style={{ color: changeColor(c.amountMinor) }}>
                      {formatSignedMinor(c.amountMinor)}
                    </span>
                  </div>
                  <div className="muted small">
                    {t('dividend.perShare', { cash: formatDividend(c.cashDividend) })}
                  </div>
                </div>
              ))
            )}
          </section>
          <section className="card">
            <h3 className="card-title">{t('dividend.events')}</h3>
            {data.events.length === 0 ? (
              <NoData />
            ) : (
              data.events.map((e) => <EventRow key={e.exDate} e={e} />)
            )}
          </section>
        </>
      )}
    </Page>
  );
}
