/**
 * `/user/pj` (評價, the app rating; the spec leaves the route unlabeled, docs/glossary.md): one to
 * five stars and an optional comment the operators read in the console, and the member's own
 * earlier ratings.
 */
import { Button, List, Rate, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_COMMENT_MAX } from '../../../../contract/account';
import { showToast } from '../../../ui/toast';
import { useSelector } from 'react-redux';
import { selectSession } from '../../../api/session';
import { LoginPrompt } from '../../../ui/login-prompt';
import '../account.css';
import { Page } from '../../../ui/page';
import { useMyFeedbackQuery, useSendFeedbackMutation } from '../api/settings-api';

export function FeedbackPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectSession).token !== null;
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const { data: mine } = useMyFeedbackQuery(undefined, { skip: !loggedIn });
  const [send, { isLoading }] = useSendFeedbackMutation();

  const submit = async () => {
    const res = await send({ rating, comment });
    if ('data' in res) {
      showToast({ icon: 'success', content: t('settings.feedback.thanks') });
      setRating(0);
      setComment('');
    }
  };

  return (
    <Page title={t('settings.item.rate')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <>
          <section className="card feedback-form">
            <div className="card-title">{t('settings.feedback.question')}</div>
            <Rate value={rating} onChange={setRating} data-testid="feedback-rate" />
            <TextArea
              value={comment}
              onChange={setComment}
              placeholder={t('settings.feedback.placeholder')}
              maxLength={FEEDBACK_COMMENT_MAX}
              showCount
              rows={4}
              data-testid="feedback-comment"
            />
            <Button
              block
              color="primary"
              disabled={rating === 0}
              loading={isLoading}
              onClick={submit}
              data-testid="feedback-submit"
            >
              {t('settings.feedback.submit')}
            </Button>
          </section>
          {mine && mine.length > 0 && (
            <List header={t('settings.feedback.mine')}>
              {mine.map((f) => (
                <List.Item
                  key={f.id}
                  description={f.comment || undefined}
                  extra={f.createdAt.slice(0, 10)}
                  data-testid="feedback-item"
                >
                  {'★'.repeat(f.rating) + '☆'.repeat(5 - f.rating)}
                </List.Item>
              ))}
            </List>
          )}
        </>
      )}
    </Page>
  );
}
