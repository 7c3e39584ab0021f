// @vitest-environment jsdom
/**
 * The order ticket's lots field shows what the ticket computes with: a typed number beyond a
 * bound is replaced at once by the bound, with a hint saying so (tw and en); an empty field
 * computes nothing and is restored to one lot on blur; − / + stop at the bounds.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LOTS_PER_ORDER } from '../../contract/market-rules';
import { setupI18n } from '../../src/app/i18n';
import { clampLots, LotsField } from '../../src/features/trading/components/lots-field';
import { en, tw } from './support/strings';

describe('clampLots', () => {
  it.each([
    ['600', { text: '499', lots: 499, clamped: 'max' }],
    ['499', { text: '499', lots: 499, clamped: null }],
    ['0', { text: '1', lots: 1, clamped: 'min' }],
    ['00', { text: '1', lots: 1, clamped: 'min' }],
    ['007', { text: '7', lots: 7, clamped: null }],
    ['', { text: '', lots: null, clamped: null }],
    ['-5', { text: '5', lots: 5, clamped: null }],
    ['１２', { text: '12', lots: 12, clamped: null }],
    ['1,000', { text: '499', lots: 499, clamped: 'max' }],
    ['9'.repeat(30), { text: '499', lots: 499, clamped: 'max' }],
  ])('%s', (typed, want) => {
    expect(clampLots(typed, 1, MAX_LOTS_PER_ORDER)).toEqual(want);
  });
});

/** The field in a parent that keeps the lots as the ticket does (0 while empty). */
function Ticket({ seen }: { seen: number[] }) {
  const [lots, setLots] = useState(1);
  return (
    <>
      <LotsField
        testId="order-lots"
        ariaLabel="lots"
        value={lots}
        min={1}
        max={MAX_LOTS_PER_ORDER}
        onChange={(v) => {
          seen.push(v ?? 0);
          setLots(v ?? 0);
        }}
      />
      <output data-testid="computed">{lots}</output>
    </>
  );
}

const input = () => screen.getByTestId('order-lots') as HTMLInputElement;
const computed = () => Number(screen.getByTestId('computed').textContent);

describe('LotsField', () => {
  beforeAll(async () => {
    await setupI18n('tw', { en, tw });
  });
  afterEach(() => cleanup());

  it('shows 499 and says so when 600 is typed (tw and en)', async () => {
    await i18next.changeLanguage('tw');
    render(<Ticket seen={[]} />);
    fireEvent.change(input(), { target: { value: '600' } });
    expect(input().value).toBe('499');
    expect(computed()).toBe(499);
    expect(screen.getByTestId('order-lots-hint').textContent).toBe('最多 499 張（已改為 499 張）');
    await i18next.changeLanguage('en');
    expect(screen.getByTestId('order-lots-hint').textContent).toBe('At most 499 lots per order (set to 499)');
  });

  it('shows 1 and says so when 0 is typed; a valid number clears the hint', async () => {
    await i18next.changeLanguage('en');
    render(<Ticket seen={[]} />);
    fireEvent.change(input(), { target: { value: '3' } });
    fireEvent.change(input(), { target: { value: '0' } });
    expect(input().value).toBe('1');
    expect(computed()).toBe(1);
    expect(screen.getByTestId('order-lots-hint').textContent).toBe('At least 1 lot (set to 1)');
    fireEvent.change(input(), { target: { value: '12' } });
    expect(input().value).toBe('12');
    expect(computed()).toBe(12);
    expect(screen.queryByTestId('order-lots-hint')).toBeNull();
  });

  it('an empty field computes nothing and reads one lot after blur', () => {
    render(<Ticket seen={[]} />);
    fireEvent.change(input(), { target: { value: '' } });
    expect(input().value).toBe('');
    expect(computed()).toBe(0);
    fireEvent.blur(input());
    expect(input().value).toBe('1');
    expect(computed()).toBe(1);
  });

  it('− and + step within the bounds; + at the top says so', () => {
    render(<Ticket seen={[]} />);
    fireEvent.click(screen.getByTestId('order-lots-plus'));
    expect(input().value).toBe('2');
    expect(computed()).toBe(2);
    fireEvent.change(input(), { target: { value: '499' } });
    expect((screen.getByTestId('order-lots-plus') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('order-lots-minus'));
    expect(input().value).toBe('498');
    expect(computed()).toBe(498);
  });
});
