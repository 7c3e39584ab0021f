// @vitest-environment jsdom
/**
 * A simulated market is always labelled as such: the Replay label shows for a replayed source
 * under either clock (replay or real exchange hours) and disappears only for the exchange's own
 * live data.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { ClockState } from '../../contract/market';
import { setupI18n } from '../../src/app/i18n';
import { ReplayLabel } from '../../src/ui/conn-badge';

beforeAll(() => {
  setupI18n();
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
  [{ source: 'replay', mode: 'replay' }, true],
  [{ source: 'replay', mode: 'exchange' }, true],
  [{ source: 'stress', mode: 'replay' }, true],
  [{ source: 'twse', mode: 'exchange' }, false],
] as const)('%o → label shown: %s', (c, shown) => {
  render(<ReplayLabel clock={clock(c)} replayDate="2026-07-31" />);
  expect(screen.queryByTestId('replay-label') !== null).toBe(shown);
});
