// @vitest-environment jsdom
/**
 * The order ticket (src/features/trading/components/order-panel.tsx) against a stubbed server
 * (real store, api, base query and locales; no market worker):
 * - the preview is orderPreview's, with the available balance and what remains after the order;
 * - time in force is sent; an IOC/FOK the server cancelled says nothing was charged;
 * - a refusal names its rule and shows its fix with a one-tap "use this" (limit ROD at the last
 *   price in a call auction, the largest size) or the time entry opens;
 * - prices beyond the limits offer the limit price before the tap;
 * - after hours is offered on the exchange clock only, at the day's close, limit ROD;
 * - each tap sends one idempotency key, resent when a lost answer is retried; the next tap a new one;
 * - an order whose total required reaches the member's confirmation threshold (user/preferences)
 *   asks first, naming the order (dismissed: nothing is sent; confirmed: sent once); below it one
 *   tap sends it; a tap before the threshold has been read waits for it.
 * (Other tests run with the largest threshold, so their taps send at once.)
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { unstableSetRender } from 'antd-mobile';
import i18next from 'i18next';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClockState, Quote } from '../../contract/market';
import { openingCheck } from '../../contract/risk';
import { orderPreview } from '../../contract/market-rules';
import { CONFIRM_ABOVE_MAX_MINOR } from '../../contract/account';
import { en } from './support/strings';
import { tw } from './support/strings';
import { loggedIn } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { OrderPanel } from '../../src/features/trading/components/order-panel';
import { formatDateTime, formatMinor, minorToInput } from '../../src/lib/format';
import { clockSeen } from '../../src/live/quotes-slice';
import type * as SegmentedModule from '../../src/ui/segmented';

vi.mock('../../src/live/worker-bridge', async () => {
  const { NEVER } = await import('rxjs');
  return { marketStream: () => NEVER, marketStatus$: () => NEVER };
});
// Counts renders of the ticket's button rows (side, type, time in force, leverage).
const segmented = vi.hoisted(() => ({ renders: 0 }));
vi.mock('../../src/ui/segmented', async (importOriginal) => {
  const actual = await importOriginal<typeof SegmentedModule>();
  return {
    ...actual,
    Segmented: (props: Parameters<typeof actual.Segmented>[0]) => {
      segmented.renders++;
      return actual.Segmented(props);
    },
  };
});
vi.mock('../../src/ui/toast', () => ({ showToast: vi.fn(), preloadToast: vi.fn(async () => undefined) }));

type Body = Record<string, unknown>;
type Reply = { status?: number; msg?: string; data: unknown };
/** A handler answering null: the answer is lost on the way (fetch rejects, as on a dropped connection). */
let handlers: Record<string, (body: Body) => Reply | null> = {};
const calls: { name: string; body: Body; key: string | null }[] = [];

function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.replace('/api/vue/', '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : {};
      const key = (init.headers as Record<string, string>)['idempotency-key'] ?? null;
      calls.push({ name, body, key });
      const h = handlers[name];
      if (!h)
        return new Response(JSON.stringify({ status: 0, msg: 'notFound', data: null }), { status: 404 });
      const r = h(body);
      if (r === null) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify({ status: r.status ?? 1, msg: r.msg ?? 'ok', data: r.data }), {
        status: r.status === 0 ? 422 : 200,
      });
    }),
  );
}

const T0 = Date.UTC(2026, 2, 2, 2, 0);
const AVAILABLE = 500_000_000;
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
const clock = (
  mode: ClockState['mode'],
  tradingPhase: ClockState['tradingPhase'] = 'continuous',
): ClockState => ({
  source: 'replay',
  mode,
  phase: 'open',
  tradingPhase,
  speed: 1,
  now: T0,
  replayDate: null,
});

function renderTicket(
  mode: ClockState['mode'] = 'replay',
  tradingPhase: ClockState['tradingPhase'] = 'continuous',
) {
  const store = createAppStore();
  store.dispatch(
    loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
  );
  store.dispatch(clockSeen(clock(mode, tradingPhase)));
  const tree = (q: Quote) => (
    <Provider store={store}>
      <MemoryRouter initialEntries={['/market/marketDetail?symbol=2330']}>
        <Routes>
          <Route path="/market/marketDetail" element={<OrderPanel symbol="2330" quote={q} />} />
          <Route path="/position/position" element={<div data-testid="positions" />} />
        </Routes>
      </MemoryRouter>
    </Provider>
  );
  const r = render(tree(quote));
  /** Re-renders the ticket with another quote (a tick). */
  const tick = (q: Quote) => r.rerender(tree(q));
  return Object.assign(r, { tick, store });
}

const placed = () => calls.filter((c) => c.name === 'trade/placeOrder').map((c) => c.body);
const text = (id: string) => screen.getByTestId(id).textContent;
const priceField = () => screen.getByTestId('order-price') as HTMLInputElement;
const submitButton = () => screen.getByTestId('order-submit') as HTMLButtonElement;

beforeAll(async () => {
  await setupI18n('en', { en, tw });
  // antd-mobile's Dialog on React 19, as src/ui/antd-render.ts sets it up in the app (here on the
  // copy of antd-mobile the tests load).
  unstableSetRender((node, container) => {
    const root = createRoot(container);
    root.render(node);
    return async () => root.unmount();
  });
});
beforeEach(async () => {
  calls.length = 0;
  await i18next.changeLanguage('en');
  handlers = {
    'common/config': () => ({ data: [{ name: 'leverages', value: '1,5,10' }] }),
    'user/info': () => ({ data: { availableMinor: AVAILABLE } }),
    'trade/placeOrder': (b) => ({
      data: { id: 9, status: 'holding', timeInForce: b.timeInForce ?? 'ROD', ...b },
    }),
    'user/preferences': () => ({ data: { confirmAboveMinor: CONFIRM_ABOVE_MAX_MINOR } }),
  };
  stubServer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('order ticket', () => {
  it('previews with orderPreview, including the available balance after the order', async () => {
    renderTicket();
    const p = orderPreview({
      priceMinor: quote.askMinor,
      lots: 1,
      leverage: 1,
      side: 'long',
      kind: 'stock',
      availableMinor: AVAILABLE,
    });
    await waitFor(() => expect(text('order-preview-available')).toBe(formatMinor(AVAILABLE)));
    expect(text('order-preview-required')).toBe(formatMinor(p.totalRequiredMinor));
    expect(text('order-preview-margin')).toBe(formatMinor(p.marginMinor));
    expect(text('order-preview-available-after')).toBe(formatMinor(p.availableAfterMinor!));
    // The replay clock has the whole day: the after-hours choice is offered, the ticket opens on
    // the regular session in continuous trading and says which phase the market is in.
    expect(screen.getByTestId('order-session-afterHours')).toBeTruthy();
    expect(screen.queryByTestId('order-fixed-price')).toBeNull();
    expect(text('order-phase-note')).toContain(en.order.phaseNote.continuous);
    expect(screen.getByTestId('trading-phase').getAttribute('data-phase')).toBe('continuous');
  });

  it('judges the whole account after the order: the ratio after it, and no send below the line', async () => {
    // One 2× long of 2330 at 1,000 (margin NT$500,000) and NT$150,000 available.
    handlers['risk/summary'] = () => ({
      data: {
        marginCallBps: 13_000,
        maintenanceBps: 11_000,
        openingBps: 13_000,
        availableMinor: 15_000_000,
        frozenMinor: 0,
        frozenForOrdersMinor: 0,
        restingMarginMinor: 0,
        debtMinor: 0,
        usedMarginMinor: 50_000_000,
        unrealisedPnlMinor: 0,
        equityMinor: 65_000_000,
        ratioBps: 13_000,
        level: 'ok',
        marginCallEquityMinor: 65_000_000,
        maintenanceEquityMinor: 55_000_000,
        marginCallActive: false,
        marginCallSaleDate: null,
        marginCallSaleOrder: [],
        unreadEvents: 0,
        lastEventId: null,
        positions: [
          {
            orderId: 1,
            symbol: '2330',
            side: 'long',
            kind: 'stock',
            leverage: 2,
            cash: false,
            followId: null,
            openPriceMinor: 100_000,
            openValueMinor: 100_000_000,
            shares: 1_000,
            marginMinor: 50_000_000,
            markMinor: 100_000,
            unrealisedPnlMinor: 0,
            equityMinor: 50_000_000,
            ratioBps: 10_000,
            liquidationPriceMinor: 55_000,
          },
        ],
        pools: [],
      },
    });
    renderTicket();
    // A 5× long (margin NT$200,000) would leave 650,000 − 1,425 on 700,000: 92.65 %.
    fireEvent.click(screen.getByTestId('leverage-5'));
    const after = openingCheck(
      {
        availableMinor: 15_000_000,
        debtMinor: 0,
        usedMarginMinor: 50_000_000,
        unrealisedPnlMinor: 0,
        restingMarginMinor: 0,
      },
      { cash: false, marginMinor: 20_000_000, feeMinor: 142_500, taxMinor: 0 },
      13_000,
    );
    expect(after.ok).toBe(false);
    await waitFor(() => expect(text('order-preview-ratio-after')).toBe('92.65%'));
    expect(text('order-below-line')).toContain(formatMinor(after.shortfallMinor));
    expect(submitButton().disabled).toBe(true);
  });

  it('opens on a limit order in the pre-open (a call phase takes limit ROD only)', async () => {
    renderTicket('replay', 'preOpen');
    await waitFor(() => expect(priceField()).toBeTruthy());
    expect(text('order-phase-note')).toContain(en.order.phaseNote.preOpen);
    expect(screen.getByTestId('trading-phase').textContent).toBe(en.tradingPhase.preOpen);
  });

  it('opens on after hours at the close during the after-hours window of the replayed day', async () => {
    renderTicket('replay', 'afterHoursEntry');
    await waitFor(() => expect(text('order-fixed-price')).toBe(formatMinor(quote.lastMinor)));
    expect(text('order-phase-note')).toContain(en.order.phaseNote.afterHoursEntry);
    // The member may still pick the regular session (refused by the server with when it opens).
    fireEvent.click(screen.getByTestId('order-session-regular'));
    expect(screen.queryByTestId('order-fixed-price')).toBeNull();
  });

  it('a quote tick re-prices the preview and leaves the inputs alone', async () => {
    const { tick } = renderTicket();
    await waitFor(() => expect(text('order-preview-available')).toBe(formatMinor(AVAILABLE)));
    const rendersBefore = segmented.renders;
    expect(rendersBefore).toBeGreaterThan(0);
    const next = { ...quote, askMinor: 100_500, bidMinor: 100_000, lastMinor: 100_500, ts: T0 + 1 };
    tick(next);
    const p = orderPreview({
      priceMinor: next.askMinor,
      lots: 1,
      leverage: 1,
      side: 'long',
      kind: 'stock',
      availableMinor: AVAILABLE,
    });
    expect(text('order-preview-required')).toBe(formatMinor(p.totalRequiredMinor));
    expect(segmented.renders).toBe(rendersBefore);
    // A change of the order does re-render them, and the limit price is prefilled from the
    // latest quote, not the one the handlers were made with.
    fireEvent.click(screen.getByTestId('order-type-limit'));
    expect(segmented.renders).toBeGreaterThan(rendersBefore);
    expect(priceField().value).toBe(minorToInput(next.lastMinor));
  });

  it('sends the time in force; a cancelled IOC says nothing was charged', async () => {
    handlers['trade/placeOrder'] = (b) => ({
      data: { id: 9, status: 'cancelled', closeReason: 'ioc', ...b },
    });
    renderTicket();
    fireEvent.click(screen.getByTestId('order-tif-IOC'));
    expect(text('order-tif-hint')).toBe(en.order.tifHint.IOC);
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.click(screen.getByTestId('order-submit'));
    await waitFor(() => expect(screen.getByTestId('order-killed')).toBeTruthy());
    expect(placed()[0]).toMatchObject({ orderType: 'market', timeInForce: 'IOC', session: 'regular' });
    expect(text('order-killed')).toContain('IOC');
  });

  it('shows the fix of a refusal and applies it in one tap', async () => {
    handlers['trade/placeOrder'] = (b) =>
      b.orderType === 'market'
        ? {
            status: 0,
            msg: 'orderTypeNotInSession',
            data: {
              fix: {
                rule: 'continuousOnly',
                phase: 'closingCall',
                orderType: 'limit',
                timeInForce: 'ROD',
                priceMinor: 100_500,
                continuousAtMs: null,
              },
            },
          }
        : { data: { id: 10, status: 'pending', ...b } };
    renderTicket();
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.click(screen.getByTestId('order-submit'));
    await waitFor(() => expect(screen.getByTestId('order-fix').dataset.rule).toBe('continuousOnly'));
    expect(text('order-fix')).toContain(en.errors.orderTypeNotInSession);
    fireEvent.click(screen.getByTestId('order-fix-use'));
    expect(screen.queryByTestId('order-fix')).toBeNull();
    expect(priceField().value).toBe(minorToInput(100_500));
    fireEvent.click(screen.getByTestId('order-submit'));
    await waitFor(() => expect(screen.getByTestId('positions')).toBeTruthy());
    expect(placed()[1]).toMatchObject({ orderType: 'limit', priceMinor: 100_500, timeInForce: 'ROD' });
  });

  it('says when entry opens, and offers the largest size', async () => {
    const opens = Date.UTC(2026, 2, 3, 0, 30);
    let answer: Reply = {
      status: 0,
      msg: 'nonTradingTime',
      data: { fix: { rule: 'outsideSession', phase: 'closed', market: 'regular', opensAtMs: opens } },
    };
    handlers['trade/placeOrder'] = () => answer;
    renderTicket();
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.click(screen.getByTestId('order-submit'));
    await waitFor(() => expect(screen.getByTestId('order-fix-opens')).toBeTruthy());
    expect(text('order-fix-opens')).toBe(en.order.fix.opensAt.replace('{{time}}', formatDateTime(opens)));

    answer = { status: 0, msg: 'exceedsOrderShares', data: { fix: { rule: 'maxLots', maxLots: 5 } } };
    fireEvent.click(screen.getByTestId('order-submit'));
    await waitFor(() => expect(screen.getByTestId('order-fix').dataset.rule).toBe('maxLots'));
    fireEvent.click(screen.getByTestId('order-fix-use'));
    expect((screen.getByTestId('order-lots') as HTMLInputElement).value).toBe('5');
  });

  it('a tap sends one key, retried with it after a lost answer; the next tap sends a new one', async () => {
    const answers: Array<Reply | null> = [
      null,
      { status: 0, msg: 'nonTradingTime', data: null },
      { data: { id: 11, status: 'holding' } },
    ];
    handlers['trade/placeOrder'] = (b) => {
      const a = answers.shift()!;
      return a && a.status !== 0 ? { data: { ...(a.data as Body), ...b } } : a;
    };
    renderTicket();
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.click(screen.getByTestId('order-submit'));
    // The lost answer is retried after TAP_RETRY_DELAY_MS with the same key; the refusal ends the tap.
    await waitFor(() => expect(screen.getByTestId('order-fix')).toBeTruthy(), { timeout: 3_000 });
    const keyed = () => calls.filter((c) => c.name === 'trade/placeOrder');
    expect(keyed()).toHaveLength(2);
    expect(keyed()[0]!.key).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(keyed()[1]!.key).toBe(keyed()[0]!.key);
    expect(keyed()[1]!.body).toEqual(keyed()[0]!.body);

    fireEvent.click(screen.getByTestId('order-submit'));
    await waitFor(() => expect(screen.getByTestId('positions')).toBeTruthy());
    expect(keyed()).toHaveLength(3);
    expect(keyed()[2]!.key).not.toBe(keyed()[0]!.key);
  });

  it('offers the limit price for a price beyond the daily limits', async () => {
    renderTicket();
    fireEvent.click(screen.getByTestId('order-type-limit'));
    fireEvent.change(priceField(), { target: { value: '1150' } });
    await waitFor(() => expect(screen.getByTestId('order-price-limits')).toBeTruthy());
    expect(submitButton().disabled).toBe(true);
    fireEvent.click(screen.getByTestId(`order-price-fix-${quote.limitUpMinor}`));
    expect(priceField().value).toBe(minorToInput(quote.limitUpMinor));
    expect(screen.queryByTestId('order-price-limits')).toBeNull();
  });

  it('during the regular session, after hours cannot be chosen and says when it opens', async () => {
    renderTicket('exchange', 'continuous');
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    const choice = screen.getByTestId('order-session-afterHours') as HTMLButtonElement;
    expect(choice.disabled).toBe(true);
    expect(text('order-afterHours-closed')).toBe(en.order.afterHoursClosed);
    fireEvent.click(choice);
    expect(screen.queryByTestId('order-fixed-price')).toBeNull();
    expect(submitButton().disabled).toBe(false);
  });

  it('an after-hours choice sends nothing once its window has shut', async () => {
    const r = renderTicket('exchange', 'afterHoursEntry');
    expect(screen.queryByTestId('order-afterHours-closed')).toBeNull();
    fireEvent.click(screen.getByTestId('order-session-afterHours'));
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    r.store.dispatch(clockSeen(clock('exchange', 'closed')));
    await waitFor(() => expect(submitButton().disabled).toBe(true));
    expect(text('order-afterHours-closed')).toBe(en.order.afterHoursClosed);
  });

  it('on the exchange clock, offers after hours at the day’s close as a limit ROD order', async () => {
    renderTicket('exchange', 'afterHoursEntry');
    fireEvent.click(screen.getByTestId('order-session-regular'));
    fireEvent.click(screen.getByTestId('order-session-afterHours'));
    expect(text('order-fixed-price')).toBe(formatMinor(quote.lastMinor));
    expect(screen.queryByTestId('order-tif-IOC')).toBeNull();
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.click(screen.getByTestId('order-submit'));
    await waitFor(() => expect(placed()).toHaveLength(1));
    expect(placed()[0]).toMatchObject({
      session: 'afterHours',
      orderType: 'limit',
      priceMinor: quote.lastMinor,
      timeInForce: 'ROD',
    });
  });

  describe('confirmation above the member threshold', () => {
    const required = orderPreview({
      priceMinor: quote.askMinor,
      lots: 1,
      leverage: 5,
      side: 'long',
      kind: 'stock',
      availableMinor: AVAILABLE,
    }).totalRequiredMinor;
    const dialog = () => document.querySelector('.adm-dialog') as HTMLElement | null;
    const dialogButton = (label: string) =>
      Array.from(dialog()?.querySelectorAll('button') ?? []).find((b) => b.textContent === label);
    const tapLong5x = async () => {
      fireEvent.click(screen.getByTestId('leverage-5'));
      await waitFor(() => expect(submitButton().disabled).toBe(false));
      fireEvent.click(screen.getByTestId('order-submit'));
    };
    afterEach(async () => {
      // Let a dialog left open close before the next test's render.
      dialogButton(en.common.cancel)?.click();
      await waitFor(() => expect(dialog()).toBeNull());
    });

    it('asks at the threshold, naming the order; dismissed nothing is sent, confirmed it is sent once', async () => {
      handlers['user/preferences'] = () => ({ data: { confirmAboveMinor: required } });
      renderTicket();
      await tapLong5x();
      await waitFor(() => expect(screen.getByTestId('confirm-above')).toBeTruthy());
      expect(dialog()!.textContent).toContain(en.confirm.orderTitle);
      const row = (id: string) => screen.getByTestId(`confirm-above-${id}`).textContent;
      expect(row('symbol')).toBe('2330 TSMC');
      expect(row('side')).toBe(en.side.long);
      expect(row('lots')).toBe('1');
      expect(row('leverage')).toBe('5×');
      expect(row('price')).toBe(en.confirm.priceMarket.replace('{{price}}', formatMinor(quote.askMinor)));
      expect(row('notional')).toBe(formatMinor(quote.askMinor * 1000));
      expect(row('required')).toBe(formatMinor(required));
      expect(text('confirm-above-note')).toContain(formatMinor(required));
      expect(placed()).toHaveLength(0);

      dialogButton(en.common.cancel)!.click();
      await waitFor(() => expect(dialog()).toBeNull());
      await waitFor(() => expect(submitButton().disabled).toBe(false));
      expect(placed()).toHaveLength(0);

      fireEvent.click(screen.getByTestId('order-submit'));
      await waitFor(() => expect(dialogButton(en.order.submitLong)).toBeTruthy());
      dialogButton(en.order.submitLong)!.click();
      await waitFor(() => expect(screen.getByTestId('positions')).toBeTruthy());
      expect(placed()).toHaveLength(1);
      expect(placed()[0]).toMatchObject({ symbol: '2330', side: 'long', lots: 1, leverage: 5 });
    });

    it('sends on one tap below the threshold', async () => {
      handlers['user/preferences'] = () => ({ data: { confirmAboveMinor: required + 1 } });
      renderTicket();
      await tapLong5x();
      await waitFor(() => expect(placed()).toHaveLength(1));
      expect(dialog()).toBeNull();
    });

    it('asks for every order at 0, saying so', async () => {
      handlers['user/preferences'] = () => ({ data: { confirmAboveMinor: 0 } });
      renderTicket();
      await tapLong5x();
      await waitFor(() =>
        expect(screen.getByTestId('confirm-above-note').textContent).toBe(en.confirm.noteAlways),
      );
      expect(placed()).toHaveLength(0);
    });

    it('a tap before the threshold has been read waits for it', async () => {
      let answer: (() => void) | null = null;
      handlers['user/preferences'] = () => ({ data: { confirmAboveMinor: required + 1 } });
      // Hold the first read back until the member has tapped.
      const realFetch = globalThis.fetch;
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string, init: RequestInit) => {
          if (url.endsWith('user/preferences') && answer === null)
            await new Promise<void>((resolve) => (answer = resolve));
          return realFetch(url, init);
        }),
      );
      renderTicket();
      await tapLong5x();
      await waitFor(() => expect(answer).not.toBeNull());
      expect(placed()).toHaveLength(0);
      answer!();
      await waitFor(() => expect(placed()).toHaveLength(1));
      expect(dialog()).toBeNull();
    });
  });
});
