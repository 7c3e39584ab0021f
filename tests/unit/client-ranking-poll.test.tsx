// @vitest-environment jsdom
/**
 * How often the market list asks the server for its order (src/features/market/ranking-window.ts):
 * a ranking every second (the server re-ranks each second), the code order (sort `all`) once a
 * minute, and not at once when its rows are already known (the early answer the static shell
 * drew). The fetches are counted on a real store with the API's fetch stubbed.
 */
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEarly } from '../../src/api/early';
import { createAppStore } from '../../src/app/store';
import { firstPageBody } from '../../src/features/market/ranking-args';
import {
  CODE_ORDER_POLL_MS,
  pagesKnown,
  POLL_MS,
  useRankingWindow,
  type RankingArgs,
  type RankingView,
} from '../../src/features/market/ranking-window';
import { rankingPage } from './support/ranking-page';

let listCalls = 0;
beforeEach(() => {
  listCalls = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.includes('market/list')) listCalls++;
      return new Response(
        JSON.stringify({ status: 1, msg: 'ok', data: rankingPage(1, 50, ['1101', '1102', '2330'], 3) }),
        {
          headers: { 'content-type': 'application/json' },
        },
      );
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Mounts the window of `args` on rows 0–12; the number of market/list fetches after `ms`. */
async function fetchesWithin(args: RankingArgs, ms: number): Promise<number> {
  const store = createAppStore();
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  const range = { startIndex: 0, endIndex: 12 };
  const { result } = renderHook(() => useRankingWindow(args, range), { wrapper });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  expect(result.current.view?.symbols).toEqual(['1101', '1102', '2330']);
  return listCalls;
}

describe('the market list order refresh', () => {
  it('asks for a ranking at once and then every second', async () => {
    expect(await fetchesWithin({ sort: 'gainers' }, 3 * POLL_MS + 100)).toBe(4);
  });

  it('asks for the code order at once, then once a minute, not every second', async () => {
    expect(await fetchesWithin({ sort: 'all' }, 3 * POLL_MS + 100)).toBe(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CODE_ORDER_POLL_MS);
    });
    expect(listCalls).toBe(2);
  });

  // Last: the early answer stays in src/api/early.ts for the rest of the file.
  it('does not ask again at once for a code order the static shell already drew', async () => {
    await startEarly('market/list', firstPageBody({ sort: 'all' }));
    listCalls = 0;
    expect(await fetchesWithin({ sort: 'all' }, 3 * POLL_MS + 100)).toBe(0);
  });
});

describe('pagesKnown', () => {
  const view = (symbols: Array<string | undefined>, total = symbols.length): RankingView => ({
    total,
    symbols,
    replayDate: null,
  });

  it('holds when every listed row of the pages has its symbol', () => {
    expect(pagesKnown(view(['A', 'B', 'C']), [1], 50)).toBe(true);
    expect(pagesKnown(view(['A', 'B', 'C', 'D']), [1, 2], 2)).toBe(true);
  });

  it('fails for no view, a gap, or a page not fetched yet', () => {
    expect(pagesKnown(null, [1])).toBe(false);
    expect(pagesKnown(view(['A', undefined, 'C']), [1], 50)).toBe(false);
    expect(pagesKnown(view(['A', 'B', undefined, undefined]), [1, 2], 2)).toBe(false);
  });
});
