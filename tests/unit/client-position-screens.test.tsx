// @vitest-environment jsdom
/**
 * The positions screen and the position detail against a stubbed server (real store, api, base
 * query and locales; no market worker):
 * - the tabs are the spec's (holdings, orders, terminated, ETF, and the primary market's bidding,
 *   auction, placement); each of the first four asks trade/orders for its own tab;
 * - a holding row shows its live market value and P&L from the quote, a pending row its time in
 *   force and after-hours session, a terminated row why it ended, in both languages;
 * - the detail shows every field of the spec's order entity plus fees, taxes, time in force, entry
 *   session, trade date, day trade and close reason, in tw and en.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Dialog } from 'antd-mobile';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Quote } from '../../contract/market';
import type { Order } from '../../contract/trading';
import { en } from './support/strings';
import { tw } from './support/strings';
import { loggedIn } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { PositionPage } from '../../src/features/position/routes/position';
import { PositionDetailPage } from '../../src/features/position/routes/position-detail';
import { quotesReceived } from '../../src/live/quotes-slice';

// No Worker in jsdom: the streams never emit; quotes are put in the store by the test.
vi.mock('../../src/live/worker-bridge', async () => {
  const { NEVER } = await import('rxjs');
  return { marketStream: () => NEVER, marketStatus$: () => NEVER };
});

/** A request body as the stub reads it. */
type Body = Record<string, unknown>;
type Handler = (body: Body) => { status?: number; msg?: string; data: unknown };
let handlers: Record<string, Handler> = {};
const calls: { name: string; body: Body }[] = [];

function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.replace('/api/vue/', '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
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

const T0 = Date.UTC(2026, 2, 2, 1, 30);

function order(over: Partial<Order>): Order {
  return {
    id: 1,
    orderNo: 'T1ABCDEF123456',
    symbol: '2330',
    name: '台積電',
    nameEn: 'TSMC',
    side: 'long',
    orderType: 'market',
    limitPriceMinor: null,
    lots: 2,
    shares: 2_000,
    leverage: 5,
    status: 'holding',
    timeInForce: 'ROD',
    entrySession: 'regular',
    tradeDate: '2026-03-02',
    dayTrade: false,
    closeReason: null,
    frozenMinor: 0,
    openPriceMinor: 60_000,
    openValueMinor: 60_000 * 2_000,
    openedAt: T0,
    marginMinor: 24_000_000,
    openFeeMinor: 171_000,
    openTaxMinor: 0,
    closePriceMinor: null,
    closedAt: null,
    closeFeeMinor: 0,
    closeTaxMinor: 0,
    pnlMinor: null,
    createdAt: T0,
    ...over,
  } as Order;
}

function quote(symbol: string, lastMinor: number): Quote {
  return {
    symbol,
    name: symbol === '0050' ? 'Yuanta 50' : 'TSMC',
    kind: symbol === '0050' ? 'etf' : 'stock',
    lastMinor,
    openMinor: 60_000,
    highMinor: 62_000,
    lowMinor: 59_000,
    prevCloseMinor: 60_000,
    limitUpMinor: 66_000,
    limitDownMinor: 54_000,
    bidMinor: lastMinor - 100,
    askMinor: lastMinor,
    volumeShares: 1_000,
    turnoverMinor: 0,
    ts: T0,
    replayDate: '2026-03-02',
    phase: 'open',
    traded: true,
  };
}

const paged = (items: Order[]) => ({ items, total: items.length, page: 1, pageSize: 20 });

function renderAt(path: string, route: string, element: ReactNode) {
  const store = createAppStore();
  store.dispatch(
    loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
  );
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={element} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return { store, ...view };
}

const holding = order({ id: 11 });
const etfHolding = order({
  id: 12,
  symbol: '0050',
  name: '元大台灣50',
  nameEn: null,
  openPriceMinor: 15_000,
  openValueMinor: 15_000 * 2_000,
  marginMinor: 6_000_000,
});
const pending = order({
  id: 21,
  status: 'pending',
  orderType: 'limit',
  limitPriceMinor: 59_000,
  timeInForce: 'IOC',
  entrySession: 'afterHours',
  openPriceMinor: null,
  openValueMinor: null,
  openedAt: null,
  marginMinor: 0,
  openFeeMinor: 0,
  frozenMinor: 23_768_100,
});
const closedByDayTrade = order({
  id: 31,
  status: 'closed',
  dayTrade: true,
  closeReason: 'dayTradeClose',
  closePriceMinor: 60_500,
  closedAt: T0 + 3_600_000,
  closeFeeMinor: 172_000,
  closeTaxMinor: 181_500,
  pnlMinor: 1_000_000,
  // The server's realised P&L (trade/orders, wallet/pnl.ts): gross − fees and tax, no dividend.
  realisedMinor: 475_500,
});

beforeAll(async () => {
  await setupI18n('en', { en, tw });
});
beforeEach(async () => {
  calls.length = 0;
  await i18next.changeLanguage('en');
  handlers = {
    'common/config': () => ({ data: [] }),
    'user/info': () => ({
      data: {
        account: '0912345678',
        totalAssetsMinor: 100_000_000,
        frozenMinor: 0,
        availableMinor: 50_000_000,
        marginMinor: 24_000_000,
        unrealisedPnlMinor: 0,
        profitMinor: 0,
        usdMinor: 0,
        debtMinor: 0,
        kycStatus: 'verified',
      },
    }),
    'market/quotes': (b) => ({
      data: { items: (b.symbols as string[]).map((s) => quote(s, s === '0050' ? 15_200 : 61_000)) },
    }),
    'trade/orders': (b) =>
      ({
        holdings: { data: paged([holding, etfHolding]) },
        etf: { data: paged([etfHolding]) },
        orders: { data: paged([pending]) },
        terminated: { data: paged([closedByDayTrade]) },
      })[b.tab as string]!,
    'trade/orderDetail': (b) => ({
      data: [holding, etfHolding, pending, closedByDayTrade].find((o) => o.id === b.orderId),
    }),
  };
  stubServer();
});
afterEach(() => {
  Dialog.clear();
  cleanup();
  vi.unstubAllGlobals();
});

describe('positions tabs', () => {
  it('shows holdings, orders, terminated, ETF and the primary-market tabs', async () => {
    renderAt('/position/position', '/position/position', <PositionPage />);
    for (const k of ['holdings', 'orders', 'terminated', 'etf'])
      expect(await screen.findByTestId(`tab-${k}`)).toBeTruthy();
    for (const k of ['bidding', 'auction', 'placement'])
      expect(screen.queryByTestId(`tab-${k}`)).toBeTruthy();
    expect(screen.getByTestId('tab-etf').textContent).toBe('ETF');
  });

  it('marks holdings to the live quote: market value and P&L', async () => {
    const { store } = renderAt('/position/position?tab=holdings', '/position/position', <PositionPage />);
    await screen.findByTestId('position-row-11');
    store.dispatch(quotesReceived([quote('2330', 61_000)]));
    // 610 NT$ × 2,000 = 1,220,000.00; (610 − 600) × 2,000 = +20,000.00
    await waitFor(() => expect(screen.getByTestId('position-value-11').textContent).toBe('1,220,000.00'));
    expect(screen.getByTestId('position-pnl-11').textContent).toBe('+20,000.00');
    expect(calls.find((c) => c.name === 'trade/orders')?.body.tab).toBe('holdings');
  });

  it('the ETF tab asks for ETF holdings and lists them as holdings', async () => {
    renderAt('/position/position?tab=etf', '/position/position', <PositionPage />);
    const row = await screen.findByTestId('position-row-12');
    // No English short name for the ETF: the Chinese one, in English too.
    expect(within(row).getByText('元大台灣50')).toBeTruthy();
    expect(screen.queryByTestId('position-row-11')).toBeNull();
    expect(screen.getByTestId('position-close-12')).toBeTruthy();
    // (the summary above the tabs reads the holdings for the live P&L)
    expect(calls.filter((c) => c.name === 'trade/orders').map((c) => c.body.tab)).toContain('etf');
  });

  it('a holding with shares in loan says why it cannot close before asking to confirm', async () => {
    handlers['lending/orders'] = () => ({
      data: {
        items: [{ id: 5, orderId: 11, status: 'inLoan', shares: 1_000 }],
        total: 1,
        page: 1,
        pageSize: 200,
      },
    });
    renderAt('/position/position?tab=holdings', '/position/position', <PositionPage />);
    fireEvent.click(await screen.findByTestId('position-close-11'));
    expect((await screen.findByTestId('close-refusal')).textContent).toBe(en.errors.lendingSharesInLoan);
    expect(screen.getByText(en.position.toRecall)).toBeTruthy();
    // Asked for the loans in loan now; no "close?" question, no close sent.
    expect(calls.find((c) => c.name === 'lending/orders')?.body.status).toBe('inLoan');
    expect(screen.queryByText('Close TSMC (2 lots) at market?')).toBeNull();
    expect(calls.some((c) => c.name === 'trade/closePosition')).toBe(false);
  });

  it('a holding without loans goes straight to the confirmation', async () => {
    handlers['lending/orders'] = () => ({
      data: {
        items: [{ id: 6, orderId: 99, status: 'inLoan', shares: 1_000 }],
        total: 1,
        page: 1,
        pageSize: 200,
      },
    });
    renderAt('/position/position?tab=holdings', '/position/position', <PositionPage />);
    fireEvent.click(await screen.findByTestId('position-close-11'));
    expect(await screen.findByText('Close TSMC (2 lots) at market?')).toBeTruthy();
    expect(screen.queryByTestId('close-refusal')).toBeNull();
  });

  it('a pending order shows its time in force and entry session', async () => {
    renderAt('/position/position?tab=orders', '/position/position', <PositionPage />);
    expect((await screen.findByTestId('order-tif-21')).textContent).toBe('IOC · After-hours fixed price');
    expect(screen.getByTestId('order-cancel-21')).toBeTruthy();
  });

  it('a terminated order says why it ended, in both languages', async () => {
    renderAt('/position/position?tab=terminated', '/position/position', <PositionPage />);
    expect((await screen.findByTestId('position-reason-31')).textContent).toBe(
      'Day-trade close at the closing call',
    );
    expect(screen.getByTestId('day-trade-tag-31').textContent).toBe('Day trade');
    await i18next.changeLanguage('tw');
    await waitFor(() =>
      expect(screen.getByTestId('position-reason-31').textContent).toBe('當沖未沖銷，收盤集合競價平倉'),
    );
    expect(screen.getByTestId('tab-terminated').textContent).toBe('已結束');
  });

  it('switching tabs asks for the tab chosen', async () => {
    renderAt('/position/position', '/position/position', <PositionPage />);
    fireEvent.click(await screen.findByTestId('tab-orders'));
    await screen.findByTestId('position-row-21');
    expect(calls.filter((c) => c.name === 'trade/orders').map((c) => c.body.tab)).toContain('orders');
  });
});

describe('position detail', () => {
  const text = (id: string) => screen.getByTestId(id).textContent;

  it('shows every field of a closed day trade', async () => {
    renderAt('/position/positionDetail?id=31', '/position/positionDetail', <PositionDetailPage />);
    await screen.findByTestId('pd-order-no');
    expect(text('pd-side')).toBe('Long');
    expect(text('pd-open-price')).toBe('600.00');
    expect(text('pd-quantity')).toBe('2000 shares (2 lots)');
    expect(text('pd-margin')).toBe('240,000.00');
    expect(text('pd-leverage')).toBe('5×');
    expect(text('pd-market-value')).toBe('1,210,000.00'); // at the close price 605
    expect(text('pd-order-type')).toBe('Market');
    expect(text('pd-tif')).toBe('ROD (rest of day)');
    expect(text('pd-session')).toBe('Regular');
    expect(text('pd-status')).toBe('Closed');
    expect(text('pd-close-price')).toBe('605.00');
    expect(text('pd-close-reason')).toBe('Day-trade close at the closing call');
    expect(text('pd-open-fee')).toBe('1,710.00');
    expect(text('pd-close-fee')).toBe('1,720.00');
    expect(text('pd-close-tax')).toBe('1,815.00');
    expect(text('pd-fees-taxes')).toBe('5,245.00');
    expect(text('pd-pnl')).toBe('+10,000.00');
    expect(text('pd-net')).toBe('+4,755.00');
    expect(text('pd-trade-date')).toBe('2026-03-02');
    expect(text('pd-day-trade')).toBe('Yes');
    expect(screen.getByText('TSMC (2330)')).toBeTruthy();
  });

  it('marks a holding to the live quote and translates to tw', async () => {
    const { store } = renderAt(
      '/position/positionDetail?id=11',
      '/position/positionDetail',
      <PositionDetailPage />,
    );
    await screen.findByTestId('pd-order-no');
    store.dispatch(quotesReceived([quote('2330', 59_500)]));
    await waitFor(() => expect(text('pd-market-value')).toBe('1,190,000.00'));
    expect(text('pd-pnl')).toBe('-10,000.00');
    expect(text('pd-close-reason')).toBe('--');
    expect(screen.getByText('TSMC (2330)')).toBeTruthy();
    await i18next.changeLanguage('tw');
    await waitFor(() => expect(text('pd-side')).toBe('做多'));
    expect(screen.getByText('台積電 (2330)')).toBeTruthy();
    expect(screen.getByText('市值(即時)')).toBeTruthy();
    expect(text('pd-tif')).toBe('ROD 當日有效');
    expect(text('pd-day-trade')).toBe('否');
  });

  it('shows time in force and session of a pending order', async () => {
    renderAt('/position/positionDetail?id=21', '/position/positionDetail', <PositionDetailPage />);
    await screen.findByTestId('pd-order-no');
    expect(text('pd-tif')).toBe('IOC (immediate or cancel)');
    expect(text('pd-session')).toBe('After-hours fixed price');
    expect(text('pd-status')).toBe('Pending');
    expect(text('pd-market-value')).toBe('--');
  });
});
