/**
 * /home/DetailsPage?id=: one published article in the app language: title, kind, date, cover,
 * body (line breaks kept) and the instruments it concerns, each opening the stock detail.
 */
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { formatDateTime, langOf } from '../../../lib/format';
import { useNewsDetailQuery } from '../api/news-api';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';

export function DetailsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isSafeInteger(id) && id > 0;
  const { data: a, isError } = useNewsDetailQuery(id, { skip: !valid });
  const en = langOf(i18n.language) === 'en';
  return (
    <Page title={t('news.article')}>
      {!valid || isError ? (
        <NoData />
      ) : !a ? null : (
        <article className="card news-article" data-testid="news-article">
          <h2 data-testid="news-article-title">{en ? a.titleEn : a.titleTw}</h2>
          <div className="news-meta muted small">
            <span className={`news-kind news-kind-${a.kind}`}>{t(`news.kind.${a.kind}`)}</span>
            {a.replayDate && <span>{t('news.replayDate', { date: a.replayDate })}</span>}
            <span>{formatDateTime(a.publishedAt)}</span>
          </div>
          {a.coverUrl && <img className="news-cover" src={a.coverUrl} alt="" />}
          <div className="news-body" data-testid="news-article-body">
            {en ? a.bodyEn : a.bodyTw}
          </div>
          {a.symbols.length > 0 && (
            <div className="news-symbols">
              {a.symbols.map((s) => (
                <span
                  key={s}
                  role="link"
                  className="news-symbol"
                  onClick={() => navigate(`/market/marketDetail?symbol=${s}`)}
                >
                  {s}
                </span>
              ))}
            </div>
          )}
        </article>
      )}
    </Page>
  );
}
