// @vitest-environment jsdom
/**
 * The pull-to-refresh wrapper (src/ui/pull-refresh.tsx, product-spec §4 "Pull-to-refresh: normal,
 * pulling, loosing, loading, success"): every antd-mobile status shows the spec state's own text
 * in both languages, children wait for antd-mobile's component and mount once, inside it, and the refresh lasts until the screen's refetch settles. antd-mobile's component
 * is replaced by a stand-in that renders each status (the drag itself is covered in Chromium by
 * tests/e2e/hybrid-shell.spec.ts).
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { Suspense, useEffect } from 'react';
import type { PullStatus, PullToRefreshProps } from 'antd-mobile/es/components/pull-to-refresh';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../src/app/i18n';
import { en, tw } from './support/strings';

const STATUSES: PullStatus[] = ['pulling', 'canRelease', 'refreshing', 'complete'];
const seen: { props: PullToRefreshProps | null; release: (() => void) | null } = {
  props: null,
  release: null,
};

vi.mock('../../src/ui/pull-refresh-impl', async () => {
  // Held until the test lets the "chunk" arrive, as a real lazy chunk would be.
  await new Promise<void>((resolve) => (seen.release = resolve));
  return {
    PullToRefresh: (props: PullToRefreshProps) => {
      seen.props = props;
      return (
        <div data-testid="stand-in">
          {STATUSES.map((s) => (
            <div key={s} data-status={s}>
              {props.renderText?.(s)}
            </div>
          ))}
          {props.children}
        </div>
      );
    },
  };
});

const { PULL_STATE_OF, PullRefresh, pullTextKey, COMPLETE_MS } = await import('../../src/ui/pull-refresh');

beforeAll(async () => {
  await setupI18n('tw', { tw, en });
});
afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('tw');
});

describe('PullRefresh', () => {
  it('maps antd-mobile statuses onto the spec states (normal is the closed head)', () => {
    expect(PULL_STATE_OF).toEqual({
      pulling: 'pulling',
      canRelease: 'loosing',
      refreshing: 'loading',
      complete: 'success',
    });
  });

  it('waits for the component, then mounts its children once, inside it', async () => {
    let mounts = 0;
    function Child() {
      useEffect(() => void mounts++, []);
      return <p data-testid="child">x</p>;
    }
    const tree = (
      <Suspense fallback={<p data-testid="waiting" />}>
        <PullRefresh onRefresh={() => Promise.resolve()}>
          <Child />
        </PullRefresh>
      </Suspense>
    );
    const { rerender } = render(tree);
    expect(screen.getByTestId('waiting')).toBeTruthy();
    expect(screen.queryByTestId('child')).toBeNull();
    await vi.waitFor(() => expect(seen.release).not.toBeNull());
    // The chunk arrives; React retries the suspended screen (here on the next render: jsdom's act
    // environment holds the retry React schedules by itself in a browser).
    await act(async () => {
      seen.release!();
      await new Promise((r) => setTimeout(r, 0));
    });
    rerender(tree);
    const wrapper = await screen.findByTestId('stand-in');
    expect(wrapper.contains(screen.getByTestId('child'))).toBe(true);
    expect(mounts).toBe(1);
    expect(seen.props?.completeDelay).toBe(COMPLETE_MS);
  });

  it.each([
    ['tw', tw],
    ['en', en],
  ] as const)('shows a distinct text for each state (%s)', async (lang, strings) => {
    await i18next.changeLanguage(lang);
    render(
      <PullRefresh onRefresh={() => Promise.resolve()}>
        <p>x</p>
      </PullRefresh>,
    );
    const wrapper = await screen.findByTestId('stand-in');
    const texts = STATUSES.map((status) => {
      const el = wrapper.querySelector(`[data-status="${status}"] [data-testid="pull-state"]`)!;
      const state = PULL_STATE_OF[status];
      expect(el.getAttribute('data-pull-state')).toBe(state);
      const [group, key] = pullTextKey(state).split('.') as ['pull', keyof typeof strings.pull];
      expect(el.textContent).toBe(strings[group][key]);
      return el.textContent;
    });
    expect(new Set(texts).size).toBe(STATUSES.length);
  });

  it('refreshing lasts until the refetch settles', async () => {
    let settle!: () => void;
    const refetch = vi.fn(() => new Promise<void>((r) => (settle = r)));
    render(
      <PullRefresh onRefresh={refetch}>
        <p>x</p>
      </PullRefresh>,
    );
    await screen.findByTestId('stand-in');
    let done = false;
    const refreshing = Promise.resolve(seen.props!.onRefresh!()).then(() => (done = true));
    expect(refetch).toHaveBeenCalledTimes(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(done).toBe(false);
    settle();
    await refreshing;
    expect(done).toBe(true);
  });
});
