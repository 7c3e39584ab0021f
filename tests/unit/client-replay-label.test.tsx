// @vitest-environment jsdom
/**
 * A simulated market is always labelled as such: the label shows for a replayed source under
 * either clock (replay or real exchange hours) and disappears only for the exchange's own live
 * data. A replayed market is a practice venue, so it reads "模擬" / "Practice" with its date; the
 * stress source reads "Replay".
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { ClockState } from '../../contract/market';
import { setupI18n } from '../../src/app/i18n';
import { ReplayLabel } from '../../src/ui/conn-badge';
import { en, tw } from './support/strings';

beforeAll(async () => {
  await setupI18n('tw', { en, tw });
});
afterEach(cleanup);

const clock = (c: Pick<ClockState, 'source' | 'mode'>): ClockState => ({
  ...c,
  phase: 'open',
  tradingPhase: 'continuous',
  speed: 1,
  now: 0,
  replayDate: null,
});

it.each([
  [{ source: 'replay', mode: 'replay' }, '模擬 2026-07-31'],
  [{ source: 'replay', mode: 'exchange' }, '模擬 2026-07-31'],
  [{ source: 'stress', mode: 'replay' }, '重播 2026-07-31'],
  [{ source: 'twse', mode: 'exchange' }, null],
] as const)('%o → label: %s', (c, text) => {
  render(<ReplayLabel clock={clock(c)} replayDate="2026-07-31" />);
  expect(screen.queryByTestId('replay-label')?.textContent ?? null).toBe(text);
});

it('says Practice in English, with the reason in its title', async () => {
  const { default: i18next } = await import('i18next');
  await i18next.changeLanguage('en');
  render(<ReplayLabel clock={clock({ source: 'replay', mode: 'replay' })} replayDate="2025-06-16" />);
  const label = screen.getByTestId('replay-label');
  expect(label.textContent).toBe('Practice 2025-06-16');
  expect(label.getAttribute('title')).toContain('cannot be withdrawn');
  await i18next.changeLanguage('tw');
});
