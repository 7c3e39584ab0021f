/** /market/favo: the watchlist with live quotes; Edit shows a remove button per row. */
import { Button, DotLoading } from 'antd-mobile';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { useDelOptionalMutation, useQuotesQuery, useWatchlistQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { QuoteRow } from '../../../live/components/quote-row';
import { useQuoteStream, useSeedQuotes } from '../../../live/hooks';
import { namesEnOfHits, recordNamesEn } from '../../../live/names-en';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { LoginPrompt } from '../../../ui/login-prompt';

export function FavoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const { data, isLoading } = useWatchlistQuery(undefined, { skip: !loggedIn });
  const [del] = useDelOptionalMutation();
  const [editing, setEditing] = useState(false);
  const symbols = useMemo(() => (data ?? []).map((e) => e.symbol), [data]);
  useEffect(() => {
    if (data) recordNamesEn(namesEnOfHits(data));
  }, [data]);
  const { data: snap } = useQuotesQuery(symbols, { skip: symbols.length === 0 });
  useSeedQuotes(snap?.items);
  useQuoteStream(symbols);
  const open = useCallback((s: string) => navigate(`/market/marketDetail?symbol=${s}`), [navigate]);

  return (
    <Page
      title={t('favo.title')}
      right={
        loggedIn && symbols.length > 0 ? (
          <span
            className="nav-link"
            role="button"
            onClick={() => setEditing((v) => !v)}
            data-testid="favo-edit"
          >
            {editing ? t('common.done') : t('common.edit')}
          </span>
        ) : null
      }
    >
      <MarketStatusBar />
      {!loggedIn ? (
        <LoginPrompt />
      ) : isLoading ? (
        <div className="center-fill">
          <DotLoading color="primary" />
        </div>
      ) : symbols.length === 0 ? (
        <>
          <NoData />
          <div className="center-pad">
            <Button color="primary" fill="outline" onClick={() => navigate('/market/market')}>
              {t('favo.add')}
            </Button>
          </div>
        </>
      ) : (
        <div className="list-card">
          {symbols.map((s) => (
            <div className="favo-row" key={s}>
              <QuoteRow symbol={s} onOpen={open} />
              {editing && (
                <Button
                  size="mini"
                  color="danger"
                  fill="outline"
                  onClick={() => void del({ symbol: s })}
                  data-testid={`favo-remove-${s}`}
                >
                  {t('favo.remove')}
                </Button>
              )}
            </div>
          ))}
        </div>
      )}
    </Page>
  );
}
