// @vitest-environment jsdom
/**
 * Every review queue is one ReviewQueue configured with its own columns and calls: the shared
 * columns frame the queue's own (id, account, own, status, [after status], created, reason,
 * actions); the status label comes from the queue's prefix; Approve calls the queue's endpoint by
 * id, and a queue with a cached list shows the returned row in place at once.
 */
import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResOf } from '../../contract/api';
import { en } from './support/strings';
import { DayTradingQueue } from '../../src/admin/day-trading-queue';
import { DepositsQueue } from '../../src/admin/deposits-queue';
import { WithdrawalsQueue } from '../../src/admin/withdrawals-queue';
import { api } from '../../src/api/api';
import { loggedIn, sessionSlice } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';

const at = Date.UTC(2025, 0, 6, 2, 0);
const dayTrade: ResOf<'admin/dayTradeApplications'>['items'][number] = {
  id: 7,
  userId: 3,
  account: '0922222222',
  status: 'pending',
  grantedBy: null,
  reason: null,
  createdAt: at,
  reviewedAt: null,
  accountDays: 12,
  tradesLastYear: 4,
  eligible: false,
};
const deposit: ResOf<'admin/deposits'>['items'][number] = {
  id: 21,
  userId: 3,
  account: '0922222222',
  amountMinor: 1_234_500,
  currency: 'TWD',
  status: 'pending',
  reason: null,
  createdAt: at,
  channelName: 'Bank transfer',
  receiptUploadId: null,
  receiptMatches: [],
  receiptNearMatches: [],
};
const withdrawal: ResOf<'admin/withdrawals'>['items'][number] = {
  id: 31,
  userId: 3,
  account: '0922222222',
  amountMinor: 500_000,
  currency: 'TWD',
  status: 'approved',
  reason: null,
  createdAt: at,
  holderName: 'Lin Wei',
  cardNumber: '822100001234',
  outsideTaiwan: false,
  bankCode: '004',
  bankName: 'Bank of Taiwan',
  branchName: 'Taipei Main',
  branchCode: '0037',
  upi: null,
};

/** Each endpoint's reply; an action's is the row it changed. */
const replies: Record<string, unknown> = {
  'admin/dayTradeApplications': { items: [dayTrade], total: 1, page: 1, pageSize: 50 },
  'admin/approveDayTrade': { ...dayTrade, status: 'approved', grantedBy: 'operator' },
  'admin/deposits': { items: [deposit], total: 1, page: 1, pageSize: 50 },
  'admin/approveDeposit': { ...deposit, status: 'approved' },
  'admin/withdrawals': { items: [withdrawal], total: 1, page: 1, pageSize: 50 },
};
let calls: { name: string; body: unknown }[] = [];
/** Held list requests after the first (so a patched row shows before any refetch lands). */
let holdRefetch = false;

function fakeFetch(url: string, init?: RequestInit): Promise<Response> {
  const name = url.replace('/api/vue/', '');
  const body = JSON.parse(String(init?.body ?? '{}')) as unknown;
  calls.push({ name, body });
  const reply = () => new Response(JSON.stringify({ status: 1, msg: 'ok', data: replies[name] }));
  const isList = !/approve|reject/.test(name);
  if (isList && holdRefetch && calls.filter((c) => c.name === name).length > 1) return new Promise(() => {});
  return Promise.resolve(reply());
}

/** Renders `queue` with a logged-in operator's store; resolves to the row `rowTestId` once it shows. */
async function show(queue: ReactElement, rowTestId: string): Promise<HTMLElement> {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, session: sessionSlice.reducer },
    middleware: (g) => g().concat(api.middleware),
  });
  store.dispatch(
    loggedIn({ token: 'op-token', account: 'operator', role: 'operator', isAdmin: false, expiresAt: 0 }),
  );
  render(<Provider store={store}>{queue}</Provider>);
  return screen.findByTestId(rowTestId);
}

/** The English column titles of space-separated keys under `admin` ("col.id dayTrading.trades"). */
const titles = (keys: string) =>
  keys
    .split(' ')
    .map((k) => k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], en.admin));

/** The table's header row is the English titles of `keys`. */
function expectColumns(keys: string) {
  expect(Array.from(document.querySelectorAll('th')).map((th) => th.textContent)).toEqual(titles(keys));
}

beforeAll(async () => {
  await setupI18n('en', { en });
});
beforeEach(() => {
  calls = [];
  holdRefetch = false;
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('review queues', () => {
  it('day trading: its columns around the shared ones, its status labels, approve by id', async () => {
    const row = await show(<DayTradingQueue />, 'daytrade-row-7');
    expectColumns(
      'col.id col.account dayTrading.accountDays dayTrading.trades dayTrading.eligible col.status dayTrading.grantedBy col.created col.reason col.actions',
    );
    expect(screen.getByTestId('daytrade-days-7').textContent).toBe('12');
    expect(row.querySelector('.status.status-pending')?.textContent).toBe(en.admin.dayTrading.status.pending);
    expect(calls[0]).toEqual({
      name: 'admin/dayTradeApplications',
      body: { status: 'pending', page: 1, pageSize: 50 },
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('daytrade-approve-7'));
    });
    await waitFor(() => expect(calls.some((c) => c.name === 'admin/approveDayTrade')).toBe(true));
    expect(calls.find((c) => c.name === 'admin/approveDayTrade')?.body).toEqual({ id: 7 });
  });

  it('deposits: the approved row shows in place before the list refetches', async () => {
    holdRefetch = true;
    const row = await show(<DepositsQueue />, 'deposit-row-21');
    expectColumns(
      'col.id col.account col.channel col.amount col.receipt col.status col.created col.reason col.actions',
    );
    expect(row.textContent).toContain('Bank transfer');
    await act(async () => {
      fireEvent.click(screen.getByTestId('deposit-approve-21'));
    });
    await waitFor(() => expect(screen.queryByTestId('deposit-approve-21')).toBeNull());
    expect(screen.getByTestId('deposit-row-21').textContent).toContain(en.depositStatus.approved);
    expect(calls.find((c) => c.name === 'admin/approveDeposit')?.body).toEqual({ id: 21 });
  });

  it('deposits: a receipt also used in other deposits is flagged with their ids and accounts, a near one apart', async () => {
    replies['admin/deposits'] = {
      items: [
        {
          ...deposit,
          receiptMatches: [
            { id: 19, userId: 4, account: '0933333333', status: 'approved' },
            { id: 17, userId: 5, account: '0944444444', status: 'rejected' },
          ],
        },
        {
          ...deposit,
          id: 22,
          receiptNearMatches: [{ id: 23, userId: 6, account: '0955555555', status: 'pending', distance: 6 }],
        },
        { ...deposit, id: 24 },
      ],
      total: 3,
      page: 1,
      pageSize: 50,
    };
    try {
      await show(<DepositsQueue />, 'deposit-row-21');
      const flag = screen.getByTestId('deposit-receipt-match-21');
      expect(flag.getAttribute('role')).toBe('note');
      expect(flag.textContent).toContain(en.admin.receiptMatch.title);
      expect(screen.getByTestId('deposit-receipt-match-21-19').textContent).toBe(
        `#19 · 0933333333 · ${en.depositStatus.approved}`,
      );
      expect(screen.getByTestId('deposit-receipt-match-21-17').textContent).toBe(
        `#17 · 0944444444 · ${en.depositStatus.rejected}`,
      );
      expect(screen.queryByTestId('deposit-receipt-near-21')).toBeNull();
      // A near match (a re-encoded copy) is listed apart, with its distance.
      expect(screen.queryByTestId('deposit-receipt-match-22')).toBeNull();
      expect(screen.getByTestId('deposit-receipt-near-22').textContent).toContain(
        en.admin.receiptMatch.nearTitle,
      );
      expect(screen.getByTestId('deposit-receipt-near-22-23').textContent).toBe(
        `#23 · 0955555555 · ${en.depositStatus.pending} · 6 bits apart`,
      );
      // A unique receipt carries no flag.
      expect(screen.getByTestId('deposit-row-24')).toBeTruthy();
      expect(screen.queryByTestId('deposit-receipt-match-24')).toBeNull();
      expect(screen.queryByTestId('deposit-receipt-near-24')).toBeNull();
    } finally {
      replies['admin/deposits'] = { items: [deposit], total: 1, page: 1, pageSize: 50 };
    }
  });

  it('withdrawals: the card columns, and a reviewed row has no actions', async () => {
    const row = await show(<WithdrawalsQueue />, 'withdrawal-row-31');
    expectColumns(
      'col.id col.account col.amount col.holder col.cardNumber col.bank col.branch col.branchCode col.status col.created col.reason col.actions',
    );
    expect(row.textContent).toContain(en.admin.reviewed);
    expect(screen.queryByTestId('withdrawal-approve-31')).toBeNull();
  });
});
