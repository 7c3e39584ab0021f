// @vitest-environment jsdom
/**
 * The subscription detail screen (/market/subscribeDetail) against a stubbed server (real store,
 * api, base query and locales):
 * - every field of the subscription entity, '--' for an unknown P/E;
 * - how the price sits on the replay: the replayed close, the announcement's discount or the
 *   rule's (marked as the rule), the source announcement once and no second set of dates; an
 *   upcoming offering priced from a close not replayed yet shows neither price nor payable;
 * - apply asks for confirmation and sends ipo/apply with an idempotency key;
 * - after the draw, "verify" re-runs drawWinners in the browser (Web Crypto) and says so when the
 *   published winners and commitment match, and says otherwise for a tampered winner list;
 * - both languages.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import type * as AntdMobile from 'antd-mobile';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  drawCommitment,
  drawWinners,
  type IpoApplication,
  type IpoDetail,
  type IpoDraw,
  type IpoOffering,
} from '../../contract/ipo';
import { en, tw } from './support/strings';
import { loggedIn } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { SubscribeDetailPage } from '../../src/features/ipo/routes/subscribe-detail';

vi.mock('../../src/live/worker-bridge', async () => {
  const { NEVER } = await import('rxjs');
  return { marketStream: () => NEVER, marketStatus$: () => NEVER };
});
// The confirmation dialog answers "apply" (antd's Dialog needs the app's React 19 render hook).
vi.mock('antd-mobile', async (importOriginal) => {
  const orig = await importOriginal<typeof AntdMobile>();
  return { ...orig, Dialog: { ...orig.Dialog, confirm: vi.fn(async () => true) } };
});
const { Dialog } = await import('antd-mobile');
vi.mock('../../src/ui/toast', () => ({ showToast: vi.fn(), preloadToast: vi.fn(async () => undefined) }));

type Body = Record<string, unknown>;
const calls: { name: string; body: Body; key: string | null }[] = [];
let detail: IpoDetail;

function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.replace('/api/vue/', '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : {};
      const key = new Headers(init.headers).get('idempotency-key');
      calls.push({ name, body, key });
      const data =
        name === 'ipo/detail'
          ? detail
          : name === 'ipo/apply'
            ? application('waitingDraw')
            : name === 'common/config'
              ? []
              : null;
      return new Response(JSON.stringify({ status: 1, msg: 'ok', data }), { status: 200 });
    }),
  );
}

const SEED = '5e'.repeat(32);
const NOS = ['0007-000001', '0007-000002', '0007-000003', '0007-000004'];

const offering: IpoOffering = {
  id: 7,
  symbol: '6722',
  name: '輝創',
  nameEn: null,
  marketType: '初上市',
  priceMinor: 4_000,
  pricing: 'listing',
  referenceMinor: null,
  referenceDate: null,
  discountBps: null,
  sharesOffered: 2_000,
  sharesPerApplication: 1_000,
  units: 2,
  phase: 'inProgress',
  stage: 'scheduled',
  applyStart: '2025-04-14',
  applyEnd: '2025-04-16',
  deductionDate: '2025-04-17',
  drawDate: '2025-04-18',
  refundDate: '2025-04-21',
  listingDate: '2025-04-25',
  source: { applyStart: '2026-01-06', priceMinor: 4_000, closeMinor: null, closeDate: null },
  payableMinor: 4_007_000,
  marketPriceMinor: null,
  pe: null,
  industryPe: null,
  applications: 4,
  myStatus: null,
};

function application(status: IpoApplication['status']): IpoApplication {
  return {
    id: 1,
    applicationNo: NOS[0]!,
    offeringId: 7,
    symbol: '6722',
    name: '輝創',
    nameEn: null,
    status,
    shares: 1_000,
    priceMinor: 4_000,
    payableMinor: 4_007_000,
    paidMinor: 4_007_000,
    refundedMinor: 0,
    wonUnits: status === 'won' ? 1 : 0,
    orderId: null,
    payable: false,
    drawDate: '2025-04-18',
    listingDate: '2025-04-25',
    createdAt: 0,
  };
}

async function drawn(): Promise<IpoDraw> {
  return {
    offeringId: 7,
    commitment: await drawCommitment(SEED),
    seed: SEED,
    units: 2,
    oversubscribed: true,
    qualified: NOS,
    winners: await drawWinners(SEED, NOS, 2),
    drawnAt: 0,
  };
}

function renderDetail() {
  const store = createAppStore();
  store.dispatch(
    loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
  );
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/market/subscribeDetail?id=7']}>
        <Routes>
          <Route path="/market/subscribeDetail" element={<SubscribeDetailPage />} />
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
  await i18next.changeLanguage('en');
  stubServer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('subscription detail', () => {
  it('shows the entity, and apply confirms then sends ipo/apply with an idempotency key', async () => {
    detail = {
      offering,
      application: null,
      draw: { ...(await drawn()), seed: null, winners: [], qualified: [], oversubscribed: null },
      today: '2025-04-14',
    };
    renderDetail();
    expect((await screen.findByTestId('ipo-price')).textContent).toContain('40.00');
    expect(screen.getByTestId('ipo-payable')?.textContent).toContain('40,070.00');
    expect(screen.getByText('P/E').nextSibling?.textContent).toContain('--');
    expect(screen.getByText('Revealed after the draw')).toBeTruthy();
    fireEvent.click(screen.getByTestId('ipo-apply'));
    await waitFor(() => expect(Dialog.confirm).toHaveBeenCalled());
    const asked = vi.mocked(Dialog.confirm).mock.calls[0]![0];
    expect(String(asked.content)).toContain('40,070.00');
    await waitFor(() => expect(calls.some((c) => c.name === 'ipo/apply')).toBe(true));
    const sent = calls.find((c) => c.name === 'ipo/apply')!;
    expect(sent.body).toEqual({ offeringId: 7 });
    expect(sent.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a seasoned offering: the replayed close, the announcement's discount, one set of dates", async () => {
    detail = {
      offering: {
        ...offering,
        symbol: '3037',
        name: '欣興',
        nameEn: 'UNIMICRON',
        marketType: '上市增資',
        priceMinor: 5_200,
        pricing: 'announcement',
        referenceMinor: 9_860,
        referenceDate: '2025-04-11',
        discountBps: 4_727,
        marketPriceMinor: 9_910,
        source: { applyStart: '2026-01-02', priceMinor: 11_600, closeMinor: 22_000, closeDate: '2025-12-31' },
        payableMinor: 5_207_000,
      },
      application: null,
      draw: { ...(await drawn()), seed: null, winners: [], qualified: [], oversubscribed: null },
      today: '2025-04-14',
    };
    renderDetail();
    expect((await screen.findByTestId('ipo-price')).textContent).toContain('52.00');
    expect(screen.getByTestId('ipo-reference').textContent).toContain('98.60');
    expect(screen.getByText('Replayed close 2025-04-11')).toBeTruthy();
    expect(screen.getByTestId('ipo-pricing').textContent).toBe("Announcement's discount 47.27%");
    expect(screen.getByTestId('ipo-pricing-note').textContent).toContain('NT$116.00');
    expect(screen.getByTestId('ipo-pricing-note').textContent).toContain('NT$220.00 (close 2025-12-31)');
    expect(screen.getByTestId('ipo-source').textContent).toBe('2026-01-02 · NT$116.00');
    expect(screen.getByText('Source: TWSE announcement')).toBeTruthy();
    const page = screen.getByTestId('ipo-detail').textContent ?? '';
    expect(page).toContain('UNIMICRON');
    expect(page).not.toContain('欣興');
    // The 2026 dates appear once (the source), the real draw date not at all.
    expect(page.split('2026-').length - 1).toBe(1);
  });

  it('an upcoming offering priced by the rule: marked as the rule, no price before its close (tw)', async () => {
    await i18next.changeLanguage('tw');
    detail = {
      offering: {
        ...offering,
        symbol: '2338',
        name: '光罩',
        marketType: '上市增資',
        phase: 'notStarted',
        priceMinor: null,
        pricing: 'rule',
        referenceMinor: null,
        referenceDate: null,
        discountBps: 3_000,
        source: { applyStart: '2026-03-05', priceMinor: 3_200, closeMinor: null, closeDate: null },
        payableMinor: null,
      },
      application: null,
      draw: { ...(await drawn()), seed: null, winners: [], qualified: [], oversubscribed: null },
      today: '2025-04-10',
    };
    renderDetail();
    expect((await screen.findByTestId('ipo-price')).textContent).toBe('依 2025-04-14 前一回放收盤價訂定');
    expect(screen.getByTestId('ipo-pricing').textContent).toBe('規則折價 30.00%');
    expect(screen.getByTestId('ipo-reference').textContent).toBe('--');
    expect(screen.getByTestId('ipo-payable').textContent).toBe('--');
    expect(screen.queryByTestId('ipo-apply')).toBeNull();
  });

  it('verify re-runs the published draw in the browser (tw)', async () => {
    await i18next.changeLanguage('tw');
    const draw = await drawn();
    const won = draw.winners.includes(NOS[0]!);
    detail = {
      offering: { ...offering, phase: 'ended', stage: 'drawn', myStatus: won ? 'won' : 'notWon' },
      application: application(won ? 'won' : 'notWon'),
      draw,
      today: '2025-04-18',
    };
    renderDetail();
    fireEvent.click(await screen.findByTestId('ipo-verify'));
    const verdict = await screen.findByTestId('ipo-verdict');
    expect(verdict?.textContent).toContain(tw.ipo.draw.commitmentOk);
    expect(verdict?.textContent).toContain(tw.ipo.draw.winnersOk);
    expect(verdict?.textContent).toContain(won ? tw.ipo.draw.mineWon : tw.ipo.draw.mineLost);
    expect(screen.getByTestId('ipo-my-result')?.textContent).toContain(
      won ? tw.ipo.status.won : tw.ipo.status.notWon,
    );
  });

  it('verify says so when the published winners are not the draw', async () => {
    const draw = await drawn();
    const loser = NOS.find((n) => !draw.winners.includes(n))!;
    detail = {
      offering: { ...offering, phase: 'ended', stage: 'drawn' },
      application: null,
      draw: { ...draw, winners: [loser, draw.winners[1]!] },
      today: '2025-04-18',
    };
    renderDetail();
    fireEvent.click(await screen.findByTestId('ipo-verify'));
    const verdict = await screen.findByTestId('ipo-verdict');
    expect(verdict?.textContent).toContain(en.ipo.draw.commitmentOk);
    expect(verdict?.textContent).toContain(en.ipo.draw.winnersBad);
  });
});
