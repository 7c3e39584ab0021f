/**
 * /market/bidding ("protocol bidding", 協議競價): the primary market beyond public subscription,
 * in four tabs: auctions open for bids (競價拍賣: minimum price, lots, cap, deposit, days; a bid of
 * price and lots freezes its deposit), block-trade stocks (鉅額交易: price within today's limits,
 * at least 500 lots or NT$15,000,000, the block-trade password), placements (配售: lots at the
 * fixed price) and the member's records (bids and applications with the amounts held: the fund
 * list). The tabs are the market screen's sort capsules (CapsuleTabs `.sort-tabs`) in
 * the chart's compact size (`.period-tabs`), so all four fit one row at 390 px in both languages. Each submission carries an idempotency key; refusals show their message
 * key's text, and a block trade refused with blockTradePasswordNotSet links to
 * /user/blockTradePassword (which comes back here).
 * Testids: `bidding-tab-<tab>`, `auction-<id>`, `auction-price-<id>`, `auction-lots-<id>`,
 * `auction-bid-<id>`, `offering-<id>`, `offering-price-<id>`, `offering-lots-<id>`,
 * `offering-password-<id>`, `offering-apply-<id>`, `offering-no-password-<id>`, `bid-<id>`,
 * `application-<id>`.
 */
import { Button, CapsuleTabs, Input, NoticeBar, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ResOf } from '../../../../contract/api';
import { BLOCK_TRADE_MIN_LOTS } from '../../../../contract/primary';
import type { ApiError } from '../../../api/base-query';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';
import { selectLoggedIn } from '../../../api/session';
import { formatMinor, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import {
  useApplyBlockTradeMutation,
  useApplyPlacementMutation,
  useAuctionsQuery,
  useBidMutation,
  useMyApplicationsQuery,
  useMyBidsQuery,
  usePrimaryOfferingsQuery,
} from '../../../api/primary-api';
import '../primary.css';

const TABS = ['auction', 'blockTrade', 'placement', 'records'] as const;
type Tab = (typeof TABS)[number];

/** NT$ text → minor units (two decimals at most), or null. */
function toMinor(text: string): number | null {
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : null;
}
const toLots = (text: string) => (/^\d{1,7}$/.test(text.trim()) ? Number(text.trim()) : null);

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <label className="pm-field">
      <span className="muted small">{label}</span>
      {children}
    </label>
  );
}

function Pair({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <div className="muted small">{label}</div>
      <div>{value}</div>
    </div>
  );
}

function AuctionCard({ a }: { a: ResOf<'auction/list'>['items'][number] }) {
  const { t, i18n } = useTranslation();
  const [price, setPrice] = useState('');
  const [lots, setLots] = useState('1');
  const [bid, state] = useBidMutation();
  const keys = useIdempotencyKeys();
  const onBid = async () => {
    const priceMinor = toMinor(price);
    const n = toLots(lots);
    if (priceMinor === null || !n) return void Toast.show(t('primary.invalidInput'));
    const done = await sendWithKey(keys, { offeringId: a.id, priceMinor, lots: n }, bid);
    if (done) Toast.show(t('primary.bidPlaced', { deposit: formatMinor(done.depositMinor) }));
  };
  return (
    <section className="card pm-card" data-testid={`auction-${a.id}`}>
      <div className="pm-head">
        <span className="pm-name">
          {instrumentName(a, langOf(i18n.language))} <span className="muted small">{a.symbol}</span>
        </span>
        <span className="muted small">{t(`primary.phase.${a.phase}`)}</span>
      </div>
      <div className="pm-grid">
        <Pair label={t('primary.minPrice')} value={formatMinor(a.minPriceMinor)} />
        <Pair label={t('primary.lots')} value={a.lots.toLocaleString()} />
        <Pair label={t('primary.cap')} value={a.capLots.toLocaleString()} />
        <Pair label={t('primary.deposit')} value={`${a.depositBps / 100}%`} />
        <Pair label={t('primary.bidDays')} value={`${a.bidStart} ~ ${a.bidEnd}`} />
        <Pair label={t('primary.listingDate')} value={a.listingDate} />
      </div>
      <div className="pm-form">
        <Field label={t('primary.price')}>
          <Input
            value={price}
            onChange={setPrice}
            inputMode="decimal"
            placeholder={formatMinor(a.minPriceMinor)}
            data-testid={`auction-price-${a.id}`}
          />
        </Field>
        <Field label={t('primary.lotsToBid')}>
          <Input value={lots} onChange={setLots} inputMode="numeric" data-testid={`auction-lots-${a.id}`} />
        </Field>
        <Button
          color="danger"
          size="small"
          loading={state.isLoading}
          onClick={onBid}
          data-testid={`auction-bid-${a.id}`}
        >
          {t('primary.bid')}
        </Button>
      </div>
      <p className="muted small">{t('primary.auctionNote', { mine: a.myBids })}</p>
    </section>
  );
}

function OfferingCard({ o }: { o: ResOf<'blockTrade/offerings'>['items'][number] }) {
  const { t, i18n } = useTranslation();
  const block = o.kind === 'blockTrade';
  const [price, setPrice] = useState(formatMinor(o.priceMinor).replace(/,/g, ''));
  const [lots, setLots] = useState(block ? String(BLOCK_TRADE_MIN_LOTS) : '1');
  const [password, setPassword] = useState('');
  const [applyBlock, blockState] = useApplyBlockTradeMutation();
  const [applyPlacement, placementState] = useApplyPlacementMutation();
  const blockKeys = useIdempotencyKeys();
  const placementKeys = useIdempotencyKeys();
  const navigate = useNavigate();
  const passwordNotSet = (blockState.error as ApiError | undefined)?.msg === 'blockTradePasswordNotSet';
  const onApply = async () => {
    const n = toLots(lots);
    const priceMinor = toMinor(price);
    if (!n || (block && priceMinor === null)) return void Toast.show(t('primary.invalidInput'));
    const done = block
      ? await sendWithKey(
          blockKeys,
          { offeringId: o.id, priceMinor: priceMinor!, lots: n, password },
          applyBlock,
        )
      : await sendWithKey(placementKeys, { offeringId: o.id, lots: n }, applyPlacement);
    if (done) Toast.show(t('primary.applied', { amount: formatMinor(done.amountMinor) }));
  };
  return (
    <section className="card pm-card" data-testid={`offering-${o.id}`}>
      <div className="pm-head">
        <span className="pm-name">
          {instrumentName(o, langOf(i18n.language))} <span className="muted small">{o.symbol}</span>
        </span>
        <span className="muted small">{t(`primary.phase.${o.phase}`)}</span>
      </div>
      <div className="pm-grid">
        <Pair
          label={t(block ? 'primary.refPrice' : 'primary.fixedPrice')}
          value={formatMinor(o.priceMinor)}
        />
        <Pair
          label={t('primary.lotsLeft')}
          value={`${o.lotsLeft.toLocaleString()} / ${o.lots.toLocaleString()}`}
        />
        <Pair label={t('primary.days')} value={`${o.startDate} ~ ${o.endDate}`} />
        {block && (
          <Pair
            label={t('primary.limits')}
            value={
              o.limitDownMinor === null
                ? '--'
                : `${formatMinor(o.limitDownMinor)} ~ ${formatMinor(o.limitUpMinor!)}`
            }
          />
        )}
      </div>
      <div className="pm-form">
        {block && (
          <Field label={t('primary.price')}>
            <Input
              value={price}
              onChange={setPrice}
              inputMode="decimal"
              data-testid={`offering-price-${o.id}`}
            />
          </Field>
        )}
        <Field label={t('primary.lotsToApply')}>
          <Input value={lots} onChange={setLots} inputMode="numeric" data-testid={`offering-lots-${o.id}`} />
        </Field>
        {block && (
          <Field label={t('primary.password')}>
            <Input
              value={password}
              onChange={setPassword}
              type="password"
              inputMode="numeric"
              maxLength={6}
              data-testid={`offering-password-${o.id}`}
            />
          </Field>
        )}
        <Button
          color="danger"
          size="small"
          loading={blockState.isLoading || placementState.isLoading}
          onClick={onApply}
          data-testid={`offering-apply-${o.id}`}
        >
          {t('primary.apply')}
        </Button>
      </div>
      {passwordNotSet && (
        <NoticeBar
          color="alert"
          wrap
          data-testid={`offering-no-password-${o.id}`}
          content={t('primary.passwordNotSet')}
          extra={
            <span className="nav-link" onClick={() => navigate('/user/blockTradePassword')}>
              {t('primary.setPassword')}
            </span>
          }
        />
      )}
      {block && <p className="muted small">{t('primary.blockNote')}</p>}
    </section>
  );
}

function Auctions() {
  const { data } = useAuctionsQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!data) return null;
  return data.items.length ? data.items.map((a) => <AuctionCard key={a.id} a={a} />) : <NoData />;
}

function Offerings({ kind }: { kind: 'blockTrade' | 'placement' }) {
  const { data } = usePrimaryOfferingsQuery(kind, { refetchOnMountOrArgChange: true });
  if (!data) return null;
  return data.items.length ? data.items.map((o) => <OfferingCard key={o.id} o={o} />) : <NoData />;
}

function Records() {
  const { t, i18n } = useTranslation();
  const bids = useMyBidsQuery(undefined, { refetchOnMountOrArgChange: true }).data?.items ?? [];
  const apps = useMyApplicationsQuery(undefined, { refetchOnMountOrArgChange: true }).data?.items ?? [];
  if (!bids.length && !apps.length) return <NoData />;
  return (
    <>
      {bids.map((b) => (
        <div className="pm-row" key={`b${b.id}`} data-testid={`bid-${b.id}`}>
          <div className="pm-head">
            <span className="pm-name">
              {t('primary.tab.auction')} · {instrumentName(b, langOf(i18n.language))}{' '}
              <span className="muted small">{b.symbol}</span>
            </span>
            <span className={`pm-status pm-${b.status}`}>{t(`primary.bidStatus.${b.status}`)}</span>
          </div>
          <div className="pm-grid">
            <Pair label={t('primary.price')} value={formatMinor(b.priceMinor)} />
            <Pair label={t('primary.lotsWon')} value={`${b.lotsWon} / ${b.lots}`} />
            <Pair label={t('primary.depositHeld')} value={formatMinor(b.depositMinor)} />
          </div>
          <div className="muted small">{b.bidNo}</div>
        </div>
      ))}
      {apps.map((a) => (
        <div className="pm-row" key={`a${a.id}`} data-testid={`application-${a.id}`}>
          <div className="pm-head">
            <span className="pm-name">
              {t(`primary.tab.${a.kind}`)} · {instrumentName(a, langOf(i18n.language))}{' '}
              <span className="muted small">{a.symbol}</span>
            </span>
            <span className={`pm-status pm-${a.status}`}>{t(`primary.appStatus.${a.status}`)}</span>
          </div>
          <div className="pm-grid">
            <Pair label={t('primary.price')} value={formatMinor(a.priceMinor)} />
            <Pair label={t('primary.lots')} value={a.lots.toLocaleString()} />
            <Pair label={t('primary.amountHeld')} value={formatMinor(a.amountMinor)} />
          </div>
          <div className="muted small">
            {a.applicationNo}
            {a.reason ? ` · ${a.reason}` : ''}
          </div>
        </div>
      ))}
    </>
  );
}

export function BiddingPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') as Tab | null;
  const tab: Tab = asked && (TABS as readonly string[]).includes(asked) ? asked : 'auction';
  return (
    <Page title={t('primary.title')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <>
          <CapsuleTabs
            activeKey={tab}
            onChange={(k) => setParams({ tab: k }, { replace: true })}
            className="sort-tabs period-tabs pm-tabs"
          >
            {TABS.map((k) => (
              <CapsuleTabs.Tab
                key={k}
                title={<span data-testid={`bidding-tab-${k}`}>{t(`primary.tab.${k}`)}</span>}
              />
            ))}
          </CapsuleTabs>
          {tab === 'auction' && <Auctions />}
          {tab === 'blockTrade' && <Offerings kind="blockTrade" />}
          {tab === 'placement' && <Offerings kind="placement" />}
          {tab === 'records' && <Records />}
        </>
      )}
    </Page>
  );
}
