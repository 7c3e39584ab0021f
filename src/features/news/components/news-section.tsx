/**
 * A small "News" card: the newest items (all, or those naming `symbol`) with a link to
 * /home/moreNews. Used on /home/index and the stock detail, each through React.lazy so neither
 * chunk carries it. Nothing is shown while loading; the spec's no-data text when empty.
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { NoData } from '../../../ui/no-data';
import { useNewsLatestQuery } from '../api/news-api';
import { NewsRow } from './news-row';

export default function NewsSection({ symbol, count = 3 }: { symbol?: string; count?: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useNewsLatestQuery({ pageSize: count, ...(symbol ? { symbol } : {}) });
  if (!data) return null;
  return (
    <section className="card" data-testid={symbol ? 'detail-news' : 'home-news'}>
      <div className="card-title-row">
        <h3 className="card-title">{t('news.title')}</h3>
        <span className="nav-link" role="link" onClick={() => navigate('/home/moreNews')}>
          {t('common.more')}
        </span>
      </div>
      {data.items.length === 0 ? (
        <NoData testId="news-empty" />
      ) : (
        data.items.map((i) => <NewsRow key={i.id} item={i} summary={false} />)
      )}
    </section>
  );
}
