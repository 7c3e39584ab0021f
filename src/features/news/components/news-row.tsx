/**
 * One news item in a list: kind tag, title and summary in the app language, the replayed date
 * (generated items) or the publishing time; opens /home/DetailsPage?id=.
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { NewsItem } from '../../../../contract/news';
import { formatDateTime } from '../../../lib/format';
import { newsText } from '../api/news-api';
import '../news.css';

export function NewsRow({ item, summary = true }: { item: NewsItem; summary?: boolean }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const text = newsText(item, i18n.language);
  return (
    <div
      className="news-row"
      role="link"
      data-testid={`news-row-${item.id}`}
      onClick={() => navigate(`/home/DetailsPage?id=${item.id}`)}
    >
      <div className="news-row-main">
        <div className="news-title">{text.title}</div>
        {summary && <div className="news-summary muted small">{text.summary}</div>}
        <div className="news-meta muted small">
          <span className={`news-kind news-kind-${item.kind}`}>{t(`news.kind.${item.kind}`)}</span>
          <span>{item.replayDate ?? formatDateTime(item.publishedAt).slice(0, 10)}</span>
        </div>
      </div>
      {item.coverUrl && <img className="news-thumb" src={item.coverUrl} alt="" loading="lazy" />}
    </div>
  );
}
