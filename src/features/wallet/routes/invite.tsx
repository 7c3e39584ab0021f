/**
 * /user/invite (non-spec route, docs/glossary.md "Invite friends"): the member's own invitation
 * code with its register link (/#/login/register?code=…, the register screen fills the code in)
 * and QR code, its use count, limit and expiry, and the members who registered with it (accounts
 * masked by the server, join date). A member without approved real-name verification is sent to
 * /user/bandCard instead (user/invite gives them no code).
 */
import { Button, List, NoticeBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { selectSession } from '../../../api/session';
import { formatDateTime } from '../../../lib/format';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { showToast } from '../../../ui/toast';
import { useUserInviteQuery } from '../api/wallet-api';
import { InviteQr } from '../components/invite-qr';
import '../wallet.css';

export function InvitePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectSession).token !== null;
  const { data } = useUserInviteQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });
  if (!loggedIn)
    return (
      <Page title={t('invite.title')}>
        <LoginPrompt />
      </Page>
    );
  if (!data)
    return (
      <Page title={t('invite.title')}>
        <Loading />
      </Page>
    );
  const link = data.path ? `${window.location.origin}${data.path}` : null;
  // A used-up code registers nobody until it is replaced at its expiry: nothing to share.
  const usedUp = data.uses !== null && data.maxUses !== null && data.uses >= data.maxUses;
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      showToast({ content: t('invite.copied') });
    } catch {
      showToast({ content: t('invite.copyFailed') });
    }
  };
  return (
    <Page title={t('invite.title')}>
      {data.code && link ? (
        <section className="card" data-testid="invite-card">
          <div className="muted small invite-center">{t('invite.yourCode')}</div>
          <div className="invite-code" data-testid="invite-code">
            {data.code}
          </div>
          {!usedUp && <InviteQr text={link} />}
          {!usedUp && (
            <div className="invite-link" data-testid="invite-link">
              {link}
            </div>
          )}
          <div className="muted small invite-center" data-testid="invite-policy">
            {t('invite.policy', {
              uses: data.uses,
              max: data.maxUses,
              until: formatDateTime(data.expiresAt),
            })}
          </div>
          {usedUp && (
            <div className="muted small invite-center" data-testid="invite-used-up">
              {t('invite.usedUp')}
            </div>
          )}
          {!usedUp && (
            <div className="invite-actions">
              <Button size="small" onClick={() => void copy(data.code!)} data-testid="invite-copy-code">
                {t('invite.copyCode')}
              </Button>
              <Button
                size="small"
                color="primary"
                onClick={() => void copy(link)}
                data-testid="invite-copy-link"
              >
                {t('invite.copyLink')}
              </Button>
            </div>
          )}
        </section>
      ) : (
        <NoticeBar
          color="alert"
          wrap
          data-testid="invite-not-eligible"
          content={t('invite.notEligible')}
          extra={
            <span className="nav-link" onClick={() => navigate('/user/bandCard')}>
              {t('invite.verify')}
            </span>
          }
        />
      )}
      <List header={t('invite.invitees', { count: data.invitees.length })} data-testid="invite-list">
        {data.invitees.length === 0 && <NoData testId="invite-empty" />}
        {data.invitees.map((m, i) => (
          <List.Item
            key={`${m.account}-${m.joinedAt}-${i}`}
            extra={formatDateTime(m.joinedAt)}
            data-testid="invite-row"
          >
            {m.account}
          </List.Item>
        ))}
      </List>
    </Page>
  );
}
