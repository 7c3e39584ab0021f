/**
 * Pieces the follow screens share (src/features/copy-trading/routes/*): the login guard, the list body
 * (no-data placeholder once an empty page has loaded, else the items), a mentor's title row with
 * its level, the mentor's terms shown before following (minimum, profit share), and the mentor
 * named by the route's `?id=`.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router-dom';
import type { Mentor } from '../../../../contract/copy-trading';
import { selectLoggedIn } from '../../../api/session';
import { formatMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { useMentorInfoQuery } from '../api/copy-trading-api';
import { formatBps } from '../../../../contract/money';

/** Its children for a logged-in member, the login prompt otherwise. */
export function Guard({ children }: { children: ReactNode }) {
  const loggedIn = useSelector(selectLoggedIn);
  return loggedIn ? <>{children}</> : <LoginPrompt />;
}

/**
 * A list screen's body: NoData once the page has loaded with no item, else `item` of each
 * (nothing while loading), inside a div with `className` and `testId` when given.
 */
export function FollowList<T extends { id: number }>({
  data,
  item,
  className,
  testId,
}: {
  data: { items: T[] } | undefined;
  item: (x: T) => ReactNode;
  className?: string;
  testId?: string;
}) {
  if (data && data.items.length === 0) return <NoData />;
  const items = (data?.items ?? []).map(item);
  return className || testId ? (
    <div className={className} data-testid={testId}>
      {items}
    </div>
  ) : (
    <>{items}</>
  );
}

/** A mentor's nickname with the level badge. */
export function MentorTitle({ m }: { m: Mentor }) {
  const { t } = useTranslation();
  return (
    <div className="card-title-row">
      <h3 className="card-title">{m.nickname}</h3>
      <span className={`gd-level gd-level-${m.level}`}>{t(`follow.level.${m.level}`)}</span>
    </div>
  );
}

/** The mentor's minimum follow amount and profit share (shown before following). */
export function MentorTerms({ m }: { m: Mentor }) {
  const { t } = useTranslation();
  return (
    <>
      <LabeledValue layout="line" label={t('follow.minFollow')} value={formatMinor(m.minFollowMinor)} />
      <LabeledValue layout="line" label={t('follow.profitShare')} value={formatBps(m.profitShareBps)} />
    </>
  );
}

/** The number in the route's `?id=` (NaN when absent). */
export function useIdParam(): number {
  const [params] = useSearchParams();
  return Number(params.get('id'));
}

/** The approved mentor named by the route's `?id=` (undefined until loaded or when absent). */
export function useRouteMentor(): Mentor | undefined {
  const id = useIdParam();
  return useMentorInfoQuery(id, { skip: !(id > 0) }).data;
}
