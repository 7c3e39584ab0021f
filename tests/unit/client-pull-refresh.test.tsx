// @vitest-environment jsdom
/**
 * The pull-to-refresh wrapper (src/ui/pull-refresh.tsx, product-spec §4 "Pull-to-refresh: normal,
 * pulling, loosing, loading, success"): every antd-mobile status shows the spec state's own text
 * in both languages, children render before antd-mobile's component has loaded and inside it
 * afterwards, and the refresh lasts until the screen's refetch settles. antd-mobile's component
 * is replaced by a stand-in that renders each status (the drag itself is covered in Chromium by
 * tests/e2e/hybrid-shell.spec.ts).
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
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

/** Waits for the stand-in "chunk" to be released and rendered. */
async function loaded() {
  await vi.waitFor(() => expect(seen.release).not.toBeNull());
  await act(async () => {
    seen.release!();
    await new Promise((r) => setTimeout(r, 0));
  });
  return screen.findByTestId('stand-in');
}

describe('PullRefresh', () => {
  it('maps antd-mobile statuses onto the spec states (normal is the closed head)', () => {
    expect(PULL_STATE_OF).toEqual({
      pulling: 'pulling',
      canRelease: 'loosing',
      refreshing: 'loading',
      complete: 'success',
    });
  });

  it('renders its children before the component has loaded, then inside it', async () => {
    render(
      <PullRefresh onRefresh={() => Promise.resolve()}>
        <p data-testid="child">x</p>
      </PullRefresh>,
    );
    expect(screen.getByTestId('child')).toBeTruthy();
    expect(screen.queryByTestId('stand-in')).toBeNull();
    const wrapper = await loaded();
    expect(wrapper.contains(screen.getByTestId('child'))).toBe(true);
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
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    settle();
    await refreshing;
    expect(done).toBe(true);
  });
});
