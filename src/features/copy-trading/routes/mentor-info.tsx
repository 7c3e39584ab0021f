/**
 * /gdindex/gdList: one mentor's figures (`?id=`), every one measured from orders and the ledger
 * (docs/copy-trading.md), with the follow button. Profit figures are coloured by sign (TWD: up
 * red, down green). Without an id the mentor list opens.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { changeColor } from '../../../lib/colors';
import { formatMinor, formatSignedMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';
import { Page } from '../../../ui/page';
import { Guard, MentorTerms, MentorTitle, useIdParam, useRouteMentor } from '../components/follow-shared';
import '../copy-trading.css';
import { MentorListPage } from './mentor-list';
import { formatBps } from '../../../../contract/money';

const hours = (ms: number) => (ms / 3_600_000).toFixed(1);

/** /gdindex/gdList: one mentor's figures. */
export function MentorInfoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useIdParam();
  const m = useRouteMentor();
  const s = m?.stats;
  const signed = (v: number | undefined) => ({
    value: v === undefined ? '' : formatSignedMinor(v),
    color: changeColor(v),
  });
  // Without a mentor id the route shows the mentor list to choose from (its own route, not a redirect).
  if (!(id > 0)) return <MentorListPage inPlace hint={t('follow.pickToView')} />;
  return (
    <Page title={t('follow.mentorInfo')}>
      <Guard>
        {m && s && (
          <section className="card" data-testid="gd-info">
            <MentorTitle m={m} />
            <div className="preview">
              <LabeledValue
                layout="line"
                label={t('follow.fundScale')}
                value={formatMinor(s.fundScaleMinor)}
              />
              <LabeledValue layout="line" label={t('follow.totalProfit')} {...signed(s.totalProfitMinor)} />
              <LabeledValue
                layout="line"
                label={t('follow.yesterdayProfit')}
                {...signed(s.yesterdayProfitMinor)}
              />
              <LabeledValue
                layout="line"
                label={t('follow.dailyReturn')}
                value={formatBps(s.dailyReturnBps, { signed: true })}
                color={changeColor(s.dailyReturnBps)}
              />
              <LabeledValue layout="line" label={t('follow.winRate')} value={formatBps(s.winRateBps)} />
              <LabeledValue
                layout="line"
                label={t('follow.historicalProfit')}
                {...signed(s.historicalProfitMinor)}
              />
              <LabeledValue
                layout="line"
                label={t('follow.avgHolding')}
                value={t('follow.hours', { h: hours(s.avgHoldingMs) })}
              />
              <LabeledValue
                layout="line"
                label={t('follow.maxDrawdown')}
                value={formatBps(s.maxDrawdownBps)}
              />
              <LabeledValue
                layout="line"
                label={t('follow.avgLeverage')}
                value={`${(s.avgLeverageX100 / 100).toFixed(2)}×`}
              />
              <LabeledValue layout="line" label={t('follow.closedTrades')} value={String(s.closedTrades)} />
              <MentorTerms m={m} />
            </div>
            <Button
              block
              color="primary"
              data-testid="gd-follow"
              onClick={() => navigate(`/gdindex/dsFllow?id=${m.id}`)}
            >
              {t('follow.follow')}
            </Button>
          </section>
        )}
      </Guard>
    </Page>
  );
}
