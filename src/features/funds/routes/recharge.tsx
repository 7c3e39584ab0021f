/**
 * /user/recharge: deposit hours (open now or the next opening) and the deposit channels operators
 * have enabled (user/depositChannels: bank, branch, limits), and for a member without a verified
 * identity the notice to verify first (deposits need it; link to /user/bandCard); choosing one opens
 * /user/rechargeChannel?id=… where the deposit is requested.
 */
import { Button, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import '../funds.css';
import { useDepositChannelsQuery, useUserInfoQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { formatMinor } from '../../../lib/format';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { DepositHours } from '../components/deposit-hours';
import { VerifyFirst } from '../components/verify-first';

export function RechargePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const { data, isError, refetch } = useDepositChannelsQuery(undefined, {
    skip: !loggedIn,
    refetchOnMountOrArgChange: true,
  });
  const { data: info } = useUserInfoQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });

  const records = (
    <span className="nav-link" onClick={() => navigate('/user/FundingDetails?tab=deposit')}>
      {t('uc.records')}
    </span>
  );

  if (!loggedIn)
    return (
      <Page title={t('recharge.title')}>
        <LoginPrompt />
      </Page>
    );

  return (
    <Page title={t('recharge.title')} right={records}>
      {data ? (
        <>
          <VerifyFirst status={info?.kycStatus} />
          <DepositHours data={data} />
          {data.channels.length === 0 ? (
            <NoData testId="channels-empty" />
          ) : (
            <List header={t('recharge.chooseChannel')}>
              {data.channels.map((c) => (
                <List.Item
                  key={c.id}
                  data-testid={`channel-${c.id}`}
                  onClick={() => navigate(`/user/rechargeChannel?id=${c.id}`)}
                  description={
                    <>
                      {c.bankName} · {c.branch}
                      <br />
                      {t('recharge.limits', {
                        currency: c.currency === 'TWD' ? t('common.currency') : c.currency,
                        min: formatMinor(c.minMinor),
                        max: formatMinor(c.maxMinor),
                      })}
                    </>
                  }
                  extra={
                    c.hasPassword ? <span className="muted small">{t('recharge.needsPassword')}</span> : null
                  }
                >
                  {c.name}
                </List.Item>
              ))}
            </List>
          )}
        </>
      ) : isError ? (
        <div className="center-pad">
          <Button onClick={() => void refetch()}>{t('common.retry')}</Button>
        </div>
      ) : (
        <Loading />
      )}
    </Page>
  );
}
