/** /home/noticeDetail?id=: one notice (`a<n>` announcement, `m<n>` account notice); opening marks it read. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { noticeIdSchema } from '../../../../contract/notices';
import { formatDateTime } from '../../../lib/format';
import { Loading } from '../../../ui/loading';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { useNoticeOpenMutation } from '../api/notices-api';
import { noticeText } from '../components/notice-text';
import '../notices.css';

export function NoticeDetailPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const valid = noticeIdSchema.safeParse(id).success;
  const [open, { data, isError, isLoading }] = useNoticeOpenMutation();
  useEffect(() => {
    if (valid) void open(id);
  }, [id, valid, open]);
  const text = data ? noticeText(data, t, i18n.language) : null;
  return (
    <Page title={t('notices.detailTitle')}>
      {!valid || isError ? (
        <NoData />
      ) : !text || isLoading ? (
        <Loading />
      ) : (
        <article className="card notice-detail" data-testid="notice-detail">
          <h2 className="notice-detail-title">{text.title}</h2>
          <div className="muted small">{formatDateTime(data!.createdAt)}</div>
          <div className="notice-detail-body">{text.body}</div>
        </article>
      )}
    </Page>
  );
}
