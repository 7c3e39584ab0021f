/**
 * /home/searchIndex: where a search starts (product-spec §2 "Search: with history"): the search
 * box (tapping it opens /home/search), the member's search history (kept on the server, newest
 * first, clearable) and hot searches. Hot searches are what members opened most in the last days
 * (with how many members); before there are any, the replayed day's most-traded instruments,
 * labelled so. Every entry opens the normal detail screen.
 */
import { Dialog, DotLoading } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { selectLoggedIn } from '../../../api/session';
import { formatCompactMinor, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { SearchIcon } from '../../../ui/icons';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { useClearSearchHistoryMutation, useHotSearchesQuery, useSearchHistoryQuery } from '../api/search-api';
import { useOpenResult } from '../components/use-open-result';
import '../search.css';

function History({ open }: { open: (symbol: string) => void }) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const { data, isLoading } = useSearchHistoryQuery();
  const [clear, clearing] = useClearSearchHistoryMutation();
  const items = data?.items ?? [];
  const confirmClear = async () => {
    const ok = await Dialog.confirm({
      content: t('search.clearConfirm'),
      confirmText: t('search.clear'),
      cancelText: t('common.cancel'),
    });
    if (ok) await clear();
  };
  return (
    <section className="card" data-testid="search-history">
      <div className="card-title-row">
        <h3 className="card-title">{t('search.history')}</h3>
        {items.length > 0 && (
          <button
            type="button"
            className="link-button"
            onClick={() => void confirmClear()}
            disabled={clearing.isLoading}
            data-testid="search-history-clear"
          >
            {t('search.clear')}
          </button>
        )}
      </div>
      {isLoading ? (
        <DotLoading />
      ) : items.length === 0 ? (
        <p className="hint-text" data-testid="search-history-empty">
          {t('search.historyEmpty')}
        </p>
      ) : (
        <div className="chip-list">
          {items.map((e) => (
            <button
              type="button"
              key={e.symbol}
              className="chip"
              onClick={() => open(e.symbol)}
              data-testid={`search-history-${e.symbol}`}
            >
              {instrumentName(e, lang)} <span className="chip-code">{e.symbol}</span>
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

function Hot({ open }: { open: (symbol: string) => void }) {
  const { t, i18n } = useTranslation();
  const { data, isLoading } = useHotSearchesQuery();
  const lang = langOf(i18n.language);
  return (
    <section className="card" data-testid="search-hot" data-basis={data?.basis}>
      <h3 className="card-title">{t('search.hot')}</h3>
      {isLoading || !data ? (
        <DotLoading />
      ) : (
        <>
          <p className="hint-text small" data-testid="search-hot-basis">
            {data.basis === 'searches'
              ? t('search.hotBySearches', { days: data.windowDays })
              : t('search.hotByTurnover', { date: data.replayDate ?? '' })}
          </p>
          <ol className="hot-list">
            {data.items.map((item, i) => (
              <li key={item.symbol}>
                <button
                  type="button"
                  className="hot-row"
                  onClick={() => open(item.symbol)}
                  data-testid={`search-hot-${item.symbol}`}
                >
                  <span className={`hot-rank ${i < 3 ? 'top' : ''}`}>{i + 1}</span>
                  <span className="hot-name">
                    {instrumentName(item, lang)} <span className="chip-code">{item.symbol}</span>
                  </span>
                  <span className="hot-figure">
                    {item.members !== null
                      ? t('search.members', { count: item.members })
                      : t('search.turnover', { value: formatCompactMinor(item.turnoverMinor, lang) })}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

export function SearchIndexPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const open = useOpenResult();
  return (
    <Page title={t('search.title')}>
      <div className="search-head">
        <button
          type="button"
          className="search-entry"
          onClick={() => navigate('/home/search')}
          data-testid="search-entry"
        >
          <SearchIcon />
          <span>{t('search.placeholder')}</span>
        </button>
      </div>
      {loggedIn ? (
        <History open={open} />
      ) : (
        <section className="card">
          <h3 className="card-title">{t('search.history')}</h3>
          <LoginPrompt />
        </section>
      )}
      <Hot open={open} />
    </Page>
  );
}
