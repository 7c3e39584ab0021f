/**
 * Pull to refresh for a screen or list: antd-mobile's PullToRefresh with the app's texts in both
 * languages. The spec's five states (product-spec §4 "Pull-to-refresh: normal, pulling, loosing,
 * loading, success") map onto antd-mobile's as follows:
 *
 * | spec      | antd-mobile                      | shown                       |
 * |-----------|----------------------------------|-----------------------------|
 * | normal    | `pulling` with the head closed   | nothing (the head is 0 px)  |
 * | pulling   | `pulling`, head opening          | "pull to refresh"           |
 * | loosing   | `canRelease` (past the threshold)| "release to refresh"        |
 * | loading   | `refreshing` (onRefresh pending) | "loading…"                  |
 * | success   | `complete` (for COMPLETE_MS)     | "refreshed"                 |
 *
 * antd-mobile rests in `pulling` with the head at height 0, so "normal" is that closed head, not
 * a status of its own. The text carries `data-pull-state` (the spec's name) for tests.
 *
 * `onRefresh` must really refetch the screen's data (RTK Query `refetch()`, awaited): loading lasts
 * until it settles. If it rejects, antd-mobile closes the head without "refreshed".
 *
 * antd-mobile's PullToRefresh brings its gesture and spring libraries (about 28 KiB gzip), which
 * no screen needs for its first render: the component (./pull-refresh-impl.ts, a chunk of its
 * own) is fetched when this module is first evaluated (with the first screen that uses it). Until
 * it is in, the wrapper suspends (the nearest Suspense boundary, the screen's), so `children` mount
 * once, inside it: mounting them without it and again inside it lost a tap made in between. When
 * the chunk fails to load, `children` render without the pull.
 */
import type { PullStatus, PullToRefreshProps } from 'antd-mobile/es/components/pull-to-refresh';
import { use, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The spec's pull-to-refresh states (product-spec §4). */
export type PullState = 'normal' | 'pulling' | 'loosing' | 'loading' | 'success';

/** The spec state each antd-mobile status shows while the head is open (see the table above). */
export const PULL_STATE_OF: Readonly<Record<PullStatus, Exclude<PullState, 'normal'>>> = {
  pulling: 'pulling',
  canRelease: 'loosing',
  refreshing: 'loading',
  complete: 'success',
};

/** The string key of a state's text (locales/more: `pull.*`). */
export const pullTextKey = (state: Exclude<PullState, 'normal'>): string => `pull.${state}`;

/** How long "refreshed" stays before the head closes, ms. */
export const COMPLETE_MS = 600;

type Antd = ComponentType<PullToRefreshProps>;
/**
 * Settles with the component, or null when its chunk failed to load (the screen works without).
 * Marked settled as React's `use` reads a thenable (status, value), so a screen mounted after the
 * chunk arrived never suspends.
 */
const loading: Promise<Antd | null> = import('./pull-refresh-impl').then(
  (m) => m.PullToRefresh,
  () => null,
);
void loading.then((c) => Object.assign(loading, { status: 'fulfilled', value: c }));

/** Wraps `children` with pull to refresh; `onRefresh` refetches what they show (awaited). */
export function PullRefresh({
  onRefresh,
  disabled,
  children,
}: {
  /** Starts the refetch; its promise (RTK Query's `refetch()` result) settles when the data is in. */
  onRefresh: () => unknown;
  disabled?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const PullToRefresh = use(loading);
  if (!PullToRefresh) return children;
  return (
    <PullToRefresh
      onRefresh={async () => void (await onRefresh())}
      completeDelay={COMPLETE_MS}
      disabled={disabled}
      renderText={(status) => {
        const state = PULL_STATE_OF[status];
        return (
          <span className="pull-refresh-text" data-pull-state={state} data-testid="pull-state">
            {t(pullTextKey(state))}
          </span>
        );
      }}
    >
      {children}
    </PullToRefresh>
  );
}
