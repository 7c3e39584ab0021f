// @vitest-environment jsdom
/**
 * The day-trading screen (/common/dayTrading) against a stubbed server (real store, api, base
 * query and locales; no market worker):
 * - the spec's four tabs (order submission, transactions, details, already applied);
 * - not applied: the member's figures against the rule and an apply button that posts
 *   dayTrade/apply; the order entry stays hidden until approved;
 * - approved: the order entry previews the closing tax at the day-trade rate (orderPreview with
 *   dayTradeOn) and sends dayTrade/placeOrder; it is the order ticket (OrderPanel) in day-trade
 *   mode: no session or time-in-force row, no price prefilled, the tick checked before sending;
 * - details show each offset pair's day-trade tax; already applied shows a rejection's reason;
 *   both languages.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIRM_ABOVE_MAX_MINOR } from '../../contract/account';
import type { DayTradeDetail, DayTradeStatus } from '../../contract/day-trading';
import type { Quote } from '../../contract/market';
import { orderPreview } from '../../contract/market-rules';
import { en } from './support/strings';
import { tw } from './support/strings';
import { loggedIn } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { DayTradingPage } from '../../src/features/day-trading/routes/day-trading';
import { formatDateTime, formatMinor } from '../../src/lib/format';

vi.mock('../../src/live/worker-bridge', async () => {
  const { NEVER } = await import('rxjs');
  return { marketStream: () => NEVER, marketStatus$: () => NEVER };
});
// Toasts are recorded instead of shown (antd's Toast needs the app's React 19 render hook).
vi.mock('../../src/ui/toast', () => ({ showToast: vi.fn(), preloadToast: vi.fn(async () => undefined) }));
const { showToast } = await import('../../src/ui/toast');

type Body = Record<string, unknown>;
type Handler = (body: Body) => { status?: number; msg?: string; data: unknown };
let handlers: Record<string, Handler> = {};
const calls: { name: string; body: Body }[] = [];

function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.replace('/api/vue/', '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : {};
      calls.push({ name, body });
      const h = handlers[name];
      if (!h)
        return new Response(JSON.stringify({ status: 0, msg: 'notFound', data: null }), { status: 404 });
      const r = h(body);
      return new Response(JSON.stringify({ status: r.status ?? 1, msg: r.msg ?? 'ok', data: r.data }), {
        status: r.status === 0 ? 422 : 200,
      });
    }),
  );
}

const T0 = Date.UTC(2026, 2, 2, 2, 0);
/** 10:00 Taipei on the replayed day 2025-04-14: the market time of T0. */
const MARKET_T0 = Date.UTC(2025, 3, 14, 2, 0);
const eligibility = {
  accountDays: 120,
  minAccountDays: 90,
  tradesLastYear: 12,
  minTrades: 10,
  eligible: true,
};

function status(over: Partial<DayTradeStatus>): DayTradeStatus {
  return {
    state: 'none',
    application: null,
    eligibility,
    autoClose: true,
    taxPpm: 1_500,
    taxUntil: '2027-12-31',
    tradeDate: '2026-03-02',
    ...over,
  };
}

const quote: Quote = {
  symbol: '2330',
  name: 'TSMC',
  kind: 'stock',
  lastMinor: 100_000,
  openMinor: 100_000,
  highMinor: 101_000,
  lowMinor: 99_000,
  prevCloseMinor: 100_000,
  limitUpMinor: 110_000,
  limitDownMinor: 90_000,
  bidMinor: 99_900,
  askMinor: 100_000,
  volumeShares: 1_000,
  turnoverMinor: 0,
  ts: T0,
  replayDate: '2026-03-02',
  phase: 'open',
  traded: true,
};

const pair: DayTradeDetail = {
  orderId: 7,
  orderNo: 'T7',
  symbol: '2330',
  name: '台積電',
  nameEn: 'TSMC',
  side: 'long',
  lots: 1,
  shares: 1_000,
  leverage: 5,
  tradeDate: '2026-03-02',
  buyPriceMinor: 100_000,
  buyAt: T0,
  // Market times of the replayed day (10:00 and 10:01 Taipei), not the wall times above.
  buyMarketAt: MARKET_T0,
  sellPriceMinor: 101_000,
  sellAt: T0 + 60_000,
  sellMarketAt: MARKET_T0 + 60_000,
  pnlMinor: 1_000_000,
  feeMinor: 287_900,
  taxMinor: 151_500,
  netMinor: 560_600,
  closeReason: 'dayTradeClose',
};

let current: DayTradeStatus;

/** Taps the day-trade ticket's submit button; the body it sends to dayTrade/placeOrder. */
async function submitDayTrade(): Promise<Body> {
  fireEvent.click(screen.getByTestId('dt-submit'));
  await waitFor(() => expect(calls.some((c) => c.name === 'dayTrade/placeOrder')).toBe(true));
  return calls.find((c) => c.name === 'dayTrade/placeOrder')!.body;
}

function renderAt(path: string) {
  const store = createAppStore();
  store.dispatch(
    loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
  );
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/common/dayTrading" element={<DayTradingPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

beforeAll(async () => {
  await setupI18n('en', { en, tw });
});
beforeEach(async () => {
  calls.length = 0;
  vi.mocked(showToast).mockClear();
  await i18next.changeLanguage('en');
  current = status({});
  handlers = {
    'common/config': () => ({ data: [{ name: 'leverages', value: '1,5,10' }] }),
    'user/info': () => ({ data: { availableMinor: 500_000_000 } }),
    'market/quotes': () => ({ data: { items: [quote] } }),
    'dayTrade/status': () => ({ data: current }),
    'dayTrade/apply': () => {
      const application = {
        id: 3,
        status: 'approved',
        grantedBy: 'auto',
        reason: null,
        createdAt: T0,
        reviewedAt: T0,
      } as const;
      current = status({ state: 'approved', application });
      return { data: application };
    },
    'dayTrade/placeOrder': (b) => ({ data: { id: 9, status: 'holding', ...b } }),
    // The largest confirmation threshold: the ticket sends on one tap (the dialog is
    // tests/unit/trading-order-ticket.test.tsx's).
    'user/preferences': () => ({ data: { confirmAboveMinor: CONFIRM_ABOVE_MAX_MINOR } }),
    'dayTrade/transactions': () => ({ data: { items: [], total: 0, page: 1, pageSize: 20 } }),
    'dayTrade/details': () => ({ data: { items: [pair], total: 1, page: 1, pageSize: 20 } }),
    'dayTrade/applications': () => ({
      data: {
        items: [
          {
            id: 2,
            status: 'rejected',
            grantedBy: null,
            reason: 'Too few trades',
            createdAt: T0,
            reviewedAt: T0 + 1,
          },
        ],
        total: 1,
        page: 1,
        pageSize: 20,
      },
    }),
  };
  stubServer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('day-trading screen', () => {
  it('has the four tabs of the spec', async () => {
    renderAt('/common/dayTrading');
    const titles = ['order', 'transactions', 'details', 'applied'].map((k) =>
      screen.getByTestId(`dt-tab-${k}`),
    );
    expect(titles.map((e) => e.textContent)).toEqual(['Order', 'Transactions', 'Details', 'Applied']);
    await screen.findByTestId('dt-status');
  });

  it('shows the rule with the member figures, applies, then offers the day-trade order entry', async () => {
    renderAt('/common/dayTrading');
    const card = await screen.findByTestId('dt-status');
    expect(card.getAttribute('data-state')).toBe('none');
    expect(screen.getByTestId('dt-account-days').textContent).toBe('120 days / ≥ 90 ✓');
    expect(screen.getByTestId('dt-trades').textContent).toBe('12 / ≥ 10 ✓');
    expect(screen.getByTestId('dt-tax-rate').textContent).toBe('0.15% until 2027-12-31');
    expect(screen.queryByTestId('dt-ticket')).toBeNull();
    fireEvent.click(screen.getByTestId('dt-apply'));
    await screen.findByTestId('dt-ticket');
    expect(calls.filter((c) => c.name === 'dayTrade/apply')).toHaveLength(1);
    expect(showToast).toHaveBeenCalledWith(expect.objectContaining({ content: 'Day trading approved' }));
    expect(screen.getByTestId('dt-state').textContent).toBe('Approved (eligible)');
    expect(screen.queryByTestId('dt-apply')).toBeNull();
  });

  it('previews the closing tax at the day-trade rate and sends a day-trade order', async () => {
    current = status({ state: 'approved' });
    renderAt('/common/dayTrading?symbol=2330');
    await screen.findByTestId('dt-ticket');
    const expected = orderPreview({
      priceMinor: 100_000,
      lots: 1,
      leverage: 1,
      side: 'long',
      kind: 'stock',
      dayTradeOn: '2026-03-02',
    });
    // 1,000 NT$ × 1,000 shares: commission 1,425 NT$, day-trade tax 1,500 NT$ (0.3 % would be 3,000).
    await waitFor(() =>
      expect(screen.getByTestId('dt-preview-close-costs').textContent).toBe(formatMinor(142_500 + 150_000)),
    );
    expect(expected.closeTaxMinor).toBe(150_000);
    expect(screen.getByTestId('dt-preview-required').textContent).toBe(
      formatMinor(expected.totalRequiredMinor),
    );
    expect(screen.queryByTestId('dt-preview-tax-refund')).toBeNull();
    // A short pays the stock rate on its opening sale now and gets the difference back when offset today.
    fireEvent.click(screen.getByTestId('dt-side-short'));
    const short = orderPreview({ priceMinor: 99_900, lots: 1, leverage: 1, side: 'short', kind: 'stock' });
    await waitFor(() =>
      expect(screen.getByTestId('dt-preview-tax').textContent).toBe(formatMinor(short.openTaxMinor)),
    );
    expect(short.openTaxMinor).toBe(299_700); // 999 × 1,000 × 0.3 %
    expect(screen.getByTestId('dt-preview-tax-refund').textContent).toBe(formatMinor(299_700 - 149_800));
    expect(screen.getByTestId('dt-preview-required').textContent).toBe(formatMinor(short.totalRequiredMinor));
    fireEvent.click(screen.getByTestId('dt-side-long'));
    expect(await submitDayTrade()).toEqual({
      symbol: '2330',
      side: 'long',
      orderType: 'market',
      lots: 1,
      leverage: 1,
    });
    await waitFor(() =>
      expect(showToast).toHaveBeenCalledWith(expect.objectContaining({ content: 'Order placed' })),
    );
    // Placed: the transactions tab opens.
    await waitFor(() => expect(calls.some((c) => c.name === 'dayTrade/transactions')).toBe(true));
  });

  it('the order entry has no session or time in force, checks the tick and sends a limit as such', async () => {
    current = status({ state: 'approved' });
    renderAt('/common/dayTrading?symbol=2330');
    await screen.findByTestId('dt-ticket');
    expect(screen.getByRole('heading', { name: 'Day-trade order' })).toBeTruthy();
    expect(screen.queryByTestId('order-tif-ROD')).toBeNull();
    expect(screen.queryByTestId('order-session-regular')).toBeNull();
    expect(screen.queryByTestId('order-submit')).toBeNull();
    expect(screen.getByTestId('dt-submit').textContent).toBe('Buy (day trade)');
    fireEvent.click(screen.getByTestId('dt-type-limit'));
    const price = screen.getByTestId('dt-price') as HTMLInputElement;
    expect(price.value).toBe('');
    // Off the tick (NT$5 from NT$1,000): said, nothing to send, and the nearest valid prices
    // offered as one tap, as on the regular ticket.
    fireEvent.change(price, { target: { value: '1002' } });
    expect((await screen.findByTestId('dt-price-offtick')).textContent).toContain(i18next.t('order.offTick'));
    expect(screen.getByTestId('dt-submit').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('order-price-fix-100000')).toBeTruthy();
    // Above limit-up (NT$1,100 from a NT$1,000 reference): the daily limits apply to day trades too.
    fireEvent.change(price, { target: { value: '1200' } });
    expect((await screen.findByTestId('dt-price-limits')).textContent).toContain('1,100.00');
    expect(screen.getByTestId('dt-submit').hasAttribute('disabled')).toBe(true);
    fireEvent.change(price, { target: { value: '1002' } });
    fireEvent.click(await screen.findByTestId('order-price-fix-100500'));
    await waitFor(() =>
      expect(screen.getByTestId('dt-preview-value').textContent).toBe(formatMinor(100_500_000)),
    );
    expect(screen.queryByTestId('dt-price-offtick')).toBeNull();
    const sent = await submitDayTrade();
    expect(sent).toEqual({
      symbol: '2330',
      side: 'long',
      orderType: 'limit',
      priceMinor: 100_500,
      lots: 1,
      leverage: 1,
    });
  });

  it('details show each offset pair with its day-trade tax, in both languages', async () => {
    renderAt('/common/dayTrading?tab=details');
    expect((await screen.findByTestId('dt-pair-tax-7')).textContent).toBe('1,515.00');
    expect(screen.getByTestId('dt-pair-net-7').textContent).toBe('+5,606.00');
    expect(screen.getByText('Day-trade tax')).toBeTruthy();
    expect(screen.getByTestId('dt-pair-7').textContent).toContain('TSMC');
    await i18next.changeLanguage('tw');
    await waitFor(() => expect(screen.getByText('當沖稅')).toBeTruthy());
    expect(screen.getByTestId('dt-pair-7').textContent).toContain('台積電');
    expect(screen.getByTestId('dt-tab-details').textContent).toBe('明細');
  });

  it('details show the legs at market time, not the wall clock', async () => {
    renderAt('/common/dayTrading?tab=details');
    const row = await screen.findByTestId('dt-pair-7');
    expect(row.textContent).toContain(formatDateTime(MARKET_T0));
    expect(row.textContent).toContain(formatDateTime(MARKET_T0 + 60_000));
    expect(row.textContent).not.toContain(formatDateTime(T0));
  });

  it('transactions mark a live day trade to the market feed, at market time', async () => {
    const holding = {
      id: 41,
      orderNo: 'T41',
      symbol: '2330',
      name: '台積電',
      nameEn: 'TSMC',
      side: 'long',
      orderType: 'market',
      limitPriceMinor: null,
      lots: 1,
      shares: 1_000,
      leverage: 5,
      status: 'holding',
      timeInForce: 'ROD',
      entrySession: 'regular',
      tradeDate: '2025-04-14',
      dayTrade: true,
      closeReason: null,
      frozenMinor: 0,
      openPriceMinor: 100_000,
      openValueMinor: 100_000_000,
      openedAt: T0,
      marginMinor: 20_000_000,
      openFeeMinor: 142_500,
      openTaxMinor: 0,
      closePriceMinor: null,
      closedAt: null,
      closeFeeMinor: 0,
      closeTaxMinor: 0,
      pnlMinor: null,
      createdAt: T0,
      marketAt: MARKET_T0,
    };
    handlers['dayTrade/transactions'] = () => ({
      data: { items: [holding], total: 1, page: 1, pageSize: 20 },
    });
    // The feed's price: 1,010 → (1,010 − 1,000) × 1,000 = +10,000.00.
    handlers['market/quotes'] = () => ({ data: { items: [{ ...quote, lastMinor: 101_000 }] } });
    renderAt('/common/dayTrading?tab=transactions');
    await waitFor(() => expect(screen.getByTestId('dt-tx-pnl-41').textContent).toBe('+10,000.00'));
    expect(screen.getByTestId('dt-tx-time-41').textContent).toBe(formatDateTime(MARKET_T0));
  });

  it('already applied lists the applications with a rejection reason', async () => {
    renderAt('/common/dayTrading?tab=applied');
    const row = await screen.findByTestId('dt-app-2');
    expect(row.textContent).toContain('Rejected');
    expect(row.textContent).toContain('Reason: Too few trades');
    await i18next.changeLanguage('tw');
    await waitFor(() => expect(screen.getByTestId('dt-app-2').textContent).toContain('已駁回'));
  });
});
