/**
 * Net deposits, the practice venue's withdrawal cap (server/modules/funds/practice.ts
 * foldNetDeposits; docs/adr/0003-practice-venue-withdrawals.md), by hand: per currency, deposits
 * in, withdrawals out (never below zero), an exchange moving the own part of what it sells with
 * the converted amount, rounded down; events applied in ledger order whatever order they come in.
 */
import { describe, expect, it } from 'vitest';
import { foldNetDeposits, withdrawalRule, type FundEvent } from '../../server/modules/funds/practice';

const dep = (seq: number, currency: string, amountMinor: number): FundEvent => ({
  seq,
  kind: 'deposit',
  currency,
  amountMinor,
});
const wd = (seq: number, amountMinor: number): FundEvent => ({
  seq,
  kind: 'withdrawal',
  currency: 'TWD',
  amountMinor,
});
const fx = (
  seq: number,
  currency: string,
  amountMinor: number,
  toCurrency: string,
  toMinor: number,
): FundEvent => ({
  seq,
  kind: 'exchange',
  currency,
  amountMinor,
  toCurrency,
  toMinor,
});
const net = (events: FundEvent[]) => Object.fromEntries(foldNetDeposits(events));

describe('net deposits', () => {
  it('deposits less withdrawals, per currency', () => {
    expect(net([dep(1, 'TWD', 10_000_000), wd(2, 3_000_000), dep(3, 'USD', 50_000)])).toEqual({
      TWD: 7_000_000,
      USD: 50_000,
    });
  });

  it('a withdrawal beyond them (opted in) leaves zero, not a negative cap', () => {
    expect(net([dep(1, 'TWD', 10_000_000), wd(2, 12_000_000), dep(3, 'TWD', 1_000_000)])).toEqual({
      TWD: 1_000_000,
    });
  });

  it('an exchange moves own money with the converted amount, rounded down', () => {
    // NT$40,000 → US$1,265.82 (at 31.6): all own money.
    expect(net([dep(1, 'TWD', 10_000_000), fx(2, 'TWD', 4_000_000, 'USD', 126_582)])).toEqual({
      TWD: 6_000_000,
      USD: 126_582,
    });
  });

  it('gains exchanged stay gains: only the own part moves, in proportion', () => {
    // NT$100,000 own; NT$150,000 sold (50,000 of it gains) for US$4,746.83: two thirds move,
    // ⌊474,683 × 10,000,000 ÷ 15,000,000⌋ = 316,455.
    expect(net([dep(1, 'TWD', 10_000_000), fx(2, 'TWD', 15_000_000, 'USD', 474_683)])).toEqual({
      TWD: 0,
      USD: 316_455,
    });
    // Back into TWD: the own USD comes back as own TWD, at the exchange's own amount.
    expect(
      net([
        dep(1, 'TWD', 10_000_000),
        fx(2, 'TWD', 15_000_000, 'USD', 474_683),
        fx(3, 'USD', 474_683, 'TWD', 14_880_000),
      ]),
    ).toEqual({ TWD: 9_919_989, USD: 0 }); // ⌊14,880,000 × 316,455 ÷ 474,683⌋
  });

  it('applies events in ledger order', () => {
    const events = [wd(3, 10_000_000), dep(1, 'TWD', 10_000_000), fx(2, 'TWD', 4_000_000, 'USD', 126_582)];
    // 100,000 in, 40,000 to USD, then a withdrawal of 100,000 (only 60,000 was own TWD).
    expect(net(events)).toEqual({ TWD: 0, USD: 126_582 });
  });

  it('the rule: capped on a replay unless REPLAY_WITHDRAWALS=all; never on another source', () => {
    expect(withdrawalRule({ marketSource: 'replay', replayWithdrawals: 'netDeposits' })).toBe('netDeposits');
    expect(withdrawalRule({ marketSource: 'replay', replayWithdrawals: 'all' })).toBe('all');
    expect(withdrawalRule({ marketSource: 'stress', replayWithdrawals: 'netDeposits' })).toBe('all');
  });
});
