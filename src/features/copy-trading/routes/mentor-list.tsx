/**
 * /gdindex/gdindex: approved mentors by level (junior, intermediate, senior tabs, `?level=`).
 * With none at a level it says why (mentors are members an operator approved once their record
 * met the criteria) and how to become one; the way to the mentor application is always shown.
 */
import { Button, Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { Mentor, MentorLevel } from '../../../../contract/copy-trading';
import { MENTOR_LEVELS } from '../../../../contract/copy-trading';
import { changeColor } from '../../../lib/colors';
import { formatMinor, formatSignedMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';
import { Page } from '../../../ui/page';
import { useMentorListQuery } from '../api/copy-trading-api';
import { FollowList, Guard, MentorTitle } from '../components/follow-shared';
import '../copy-trading.css';
import { formatBps } from '../../../../contract/money';

function MentorCard({ m, onOpen }: { m: Mentor; onOpen: () => void }) {
  const { t } = useTranslation();
  const s = m.stats;
  return (
    <button type="button" className="card gd-card" onClick={onOpen} data-testid={`gd-mentor-${m.id}`}>
      <MentorTitle m={m} />
      <div className="gd-figures">
        <LabeledValue
          layout="figure"
          label={t('follow.totalProfit')}
          value={formatSignedMinor(s.totalProfitMinor)}
          color={changeColor(s.totalProfitMinor)}
        />
        <LabeledValue layout="figure" label={t('follow.winRate')} value={formatBps(s.winRateBps)} />
        <LabeledValue layout="figure" label={t('follow.fundScale')} value={formatMinor(s.fundScaleMinor)} />
      </div>
    </button>
  );
}

/** No mentor at `level`: why, and how to become one. */
function NoMentors({ level }: { level: MentorLevel }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="card gd-empty" data-testid="gd-empty">
      <h3 className="card-title">{t('follow.emptyTitle', { level: t(`follow.level.${level}`) })}</h3>
      <p className="small">{t('follow.emptyWhy')}</p>
      <p className="small">{t('follow.emptyHow')}</p>
      <Button block color="primary" onClick={() => navigate('/gdindex/mentorApply')} data-testid="gd-become">
        {t('follow.becomeMentor')}
      </Button>
    </section>
  );
}

/**
 * /gdindex/gdindex: mentors by level. Also shown in place by the routes that name one mentor
 * (gdList, dsFllow) when opened without an id: then `inPlace` gives it a back button and `hint`
 * says what to do here (pick a mentor to see or follow).
 */
export function MentorListPage({ inPlace = false, hint }: { inPlace?: boolean; hint?: string } = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const p = params.get('level');
  const level: MentorLevel = (MENTOR_LEVELS as readonly string[]).includes(p ?? '')
    ? (p as MentorLevel)
    : 'junior';
  const { data } = useMentorListQuery({ level });
  return (
    <Page
      title={t('follow.title')}
      back={inPlace}
      right={
        <a className="nav-link" href="#/gdindex/dsFllowInfo">
          {t('follow.myFollows')}
        </a>
      }
    >
      <Guard>
        {hint && (
          <p className="hint-text" data-testid="gd-pick-hint">
            {hint}
          </p>
        )}
        <Tabs
          activeKey={level}
          onChange={(k) => setParams({ level: k }, { replace: true })}
          className="sticky-tabs"
        >
          {MENTOR_LEVELS.map((k) => (
            <Tabs.Tab key={k} title={<span data-testid={`gd-tab-${k}`}>{t(`follow.level.${k}`)}</span>} />
          ))}
        </Tabs>
        {data && data.items.length === 0 ? (
          <NoMentors level={level} />
        ) : (
          <>
            <FollowList
              data={data}
              className="gd-list"
              testId="gd-list"
              item={(m) => (
                <MentorCard key={m.id} m={m} onOpen={() => navigate(`/gdindex/gdList?id=${m.id}`)} />
              )}
            />
            {data && (
              <a className="gd-become-link small" href="#/gdindex/mentorApply" data-testid="gd-become-link">
                {t('follow.becomeMentor')} ›
              </a>
            )}
          </>
        )}
      </Guard>
    </Page>
  );
}
