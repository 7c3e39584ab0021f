// @vitest-environment jsdom
/**
 * The connection badge names every state of the worker's connection machine in both languages,
 * and whenever prices are not streaming live it says how old the newest data is, re-read once a
 * second ("更新於 12 秒前" / "Updated 12 s ago"). While live no timer runs at all.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { en } from './support/strings';
import { tw } from './support/strings';
import { setupI18n } from '../../src/app/i18n';
import { ConnBadge, formatAge } from '../../src/ui/conn-badge';
import type { ConnState } from '../../workers/protocol';

const STATES: ConnState[] = [
  'connecting',
  'live',
  'reconnecting',
  'polling',
  'stale',
  'backgrounded',
  'stopped',
];

beforeAll(async () => {
  await setupI18n('tw', { tw, en });
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await i18next.changeLanguage('tw');
});

describe('ConnBadge', () => {
  it.each(['tw', 'en'] as const)('has a distinct translated label for every state (%s)', async (lang) => {
    await i18next.changeLanguage(lang);
    const labels = STATES.map((state) => {
      render(<ConnBadge state={state} lastDataAt={null} />);
      const badge = screen.getByTestId('conn-badge');
      expect(badge.getAttribute('data-state')).toBe(state);
      const label = badge.querySelector('.conn-label')!.textContent!;
      expect(label).not.toMatch(/^conn\./);
      cleanup();
      return label;
    });
    expect(new Set(labels).size).toBe(STATES.length);
  });

  it('shows the age of the newest data while polling, ticking once a second', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 6, 24, 2, 0, 0) });
    render(<ConnBadge state="polling" lastDataAt={Date.now() - 12_000} />);
    expect(screen.getByTestId('conn-age').textContent).toBe('更新於 12 秒前');
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(screen.getByTestId('conn-age').textContent).toBe('更新於 13 秒前');
    expect(vi.getTimerCount()).toBe(1);
  });

  it.each(['reconnecting', 'stale', 'backgrounded'] as const)('shows the age when %s', (state) => {
    vi.useFakeTimers({ now: Date.UTC(2026, 6, 24, 2, 0, 0) });
    render(<ConnBadge state={state} lastDataAt={Date.now() - 75_000} />);
    expect(screen.getByTestId('conn-age').textContent).toBe('更新於 1 分鐘前');
  });

  it('in English', async () => {
    await i18next.changeLanguage('en');
    vi.useFakeTimers({ now: Date.UTC(2026, 6, 24, 2, 0, 0) });
    render(<ConnBadge state="stale" lastDataAt={Date.now() - 12_000} />);
    expect(screen.getByTestId('conn-badge').textContent).toBe('StaleUpdated 12 s ago');
  });

  it('runs no timer and shows no age while live (or before any data)', () => {
    vi.useFakeTimers();
    render(<ConnBadge state="live" lastDataAt={Date.now() - 3_000} />);
    expect(screen.queryByTestId('conn-age')).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    cleanup();
    render(<ConnBadge state="polling" lastDataAt={null} />);
    expect(screen.queryByTestId('conn-age')).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('formatAge', () => {
  const t = i18next.t.bind(i18next);
  it.each([
    [0, '0 秒前'],
    [-500, '0 秒前'],
    [59_999, '59 秒前'],
    [60_000, '1 分鐘前'],
    [3_599_000, '59 分鐘前'],
    [7_200_000, '2 小時前'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatAge(ms, t)).toBe(text);
  });
});
