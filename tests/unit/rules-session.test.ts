/**
 * Session phases (contract/trading-session.ts) at every boundary, to the millisecond, on real TWSE
 * days from server/market/calendar.ts (seed-data/calendar/twse_calendar_exceptions_2015_2026.csv).
 * TW-MARKET-RULES "Regular session", "Pre-open", "Opening and closing", "After-hours fixed price".
 * Instants are written as explicit UTC (Taipei = UTC+8, no DST).
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  acceptsOrders,
  addIsoDays,
  createTradingSession,
  nextOpen,
  orderEntryRejection,
  PHASE_RULES,
  sessionTimes,
  taipeiIsoDate,
  tradingDayPredicate,
  tradingPhaseAt,
  TRADING_PHASES,
  type TradingPhase,
} from '../../contract/trading-session';
import { calendarExceptions, isTradingDay } from '../../server/market/calendar';

/** Epoch ms of a Taipei wall time. */
const tpe = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  Date.UTC(y, mo - 1, d, h - 8, mi, s, ms);

// 2026-07-09 is a Thursday and a trading day; 2026-07-10 (Fri) was an unscheduled closure.
const D = [2026, 7, 9] as const;
const at = (h: number, mi = 0, s = 0, ms = 0) => tpe(...D, h, mi, s, ms);

describe('phase boundaries on a trading day (half-open intervals, exact to the ms)', () => {
  it.each<[string, number, TradingPhase]>([
    ['00:00:00.000', at(0), 'closed'],
    ['08:29:59.999', at(8, 29, 59, 999), 'closed'],
    ['08:30:00.000', at(8, 30), 'preOpen'],
    ['08:59:59.999', at(8, 59, 59, 999), 'preOpen'],
    ['09:00:00.000', at(9), 'continuous'],
    ['13:24:59.999', at(13, 24, 59, 999), 'continuous'],
    ['13:25:00.000', at(13, 25), 'closingCall'],
    ['13:29:59.999', at(13, 29, 59, 999), 'closingCall'],
    ['13:30:00.000', at(13, 30), 'intermission'],
    ['13:59:59.999', at(13, 59, 59, 999), 'intermission'],
    ['14:00:00.000', at(14), 'afterHoursEntry'],
    ['14:29:59.999', at(14, 29, 59, 999), 'afterHoursEntry'],
    ['14:30:00.000', at(14, 30), 'closed'],
    ['23:59:59.999', at(23, 59, 59, 999), 'closed'],
  ])('%s → %s', (_label, ms, phase) => {
    expect(tradingPhaseAt(ms, isTradingDay)).toBe(phase);
  });

  it('sessionTimes gives the boundary instants', () => {
    expect(sessionTimes('2026-07-09')).toEqual({
      preOpenMs: at(8, 30),
      continuousMs: at(9),
      closingCallMs: at(13, 25),
      regularCloseMs: at(13, 30),
      afterHoursEntryMs: at(14),
      afterHoursMatchMs: at(14, 30),
    });
    // Taipei midnight is 16:00 UTC the day before
    expect(sessionTimes('2026-07-09').preOpenMs).toBe(Date.UTC(2026, 6, 9, 0, 30));
  });
});

describe('what each phase accepts', () => {
  it('regular orders 08:30–13:30, after-hours orders 14:00–14:30, nothing in between', () => {
    const regular = TRADING_PHASES.filter((p) => acceptsOrders(p, 'regular'));
    const afterHours = TRADING_PHASES.filter((p) => acceptsOrders(p, 'afterHours'));
    expect(regular).toEqual(['preOpen', 'continuous', 'closingCall']);
    expect(afterHours).toEqual(['afterHoursEntry']);
    expect(PHASE_RULES.intermission).toEqual({
      regularOrders: false,
      afterHoursOrders: false,
      cancellations: false,
    });
    expect(PHASE_RULES.closed.cancellations).toBe(false);
    expect(TRADING_PHASES.filter((p) => PHASE_RULES[p].cancellations)).toEqual([
      'preOpen',
      'continuous',
      'closingCall',
      'afterHoursEntry',
    ]);
  });
});

describe('non-trading days are closed all day', () => {
  it.each([
    ['Saturday', '2026-07-11'],
    ['Sunday', '2026-07-12'],
    ['unscheduled closure 2026-07-10', '2026-07-10'],
    ['Lunar New Year 2026 (Mon)', '2026-02-16'],
    ['Lunar New Year 2026 (Fri)', '2026-02-20'],
    ['settlement-only day before Lunar New Year 2026', '2026-02-12'],
    ['Lunar New Year 2025 (Wed)', '2025-01-29'],
    ['Lunar New Year 2024 (Fri)', '2024-02-09'],
    ['typhoon 2024-07-24', '2024-07-24'],
    ['Peace Memorial Day 2026 (observed)', '2026-02-27'],
  ])('%s', (_label, date) => {
    expect(isTradingDay(date)).toBe(false);
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    for (const [h, mi] of [
      [8, 30],
      [9, 0],
      [10, 0],
      [13, 25],
      [14, 0],
    ] as const) {
      expect(tradingPhaseAt(tpe(y, m, d, h, mi), isTradingDay)).toBe('closed');
    }
  });

  it('a Saturday make-up session trades (2018-12-22)', () => {
    expect(tradingPhaseAt(tpe(2018, 12, 22, 10), isTradingDay)).toBe('continuous');
    expect(tradingPhaseAt(tpe(2018, 12, 22, 8, 30), isTradingDay)).toBe('preOpen');
  });
});

describe('nextOpen: when order entry next opens (at or after the instant)', () => {
  it('same day before 08:30, the instant itself at 08:30, the next trading day once open', () => {
    expect(nextOpen(at(0), isTradingDay)).toBe(at(8, 30));
    expect(nextOpen(at(8, 29, 59, 999), isTradingDay)).toBe(at(8, 30));
    expect(nextOpen(at(8, 30), isTradingDay)).toBe(at(8, 30));
    // Fri 2026-07-10 was closed → Mon 2026-07-13
    expect(nextOpen(at(8, 30, 0, 1), isTradingDay)).toBe(tpe(2026, 7, 13, 8, 30));
    expect(nextOpen(at(13, 30), isTradingDay)).toBe(tpe(2026, 7, 13, 8, 30));
    expect(nextOpen(at(14, 30), isTradingDay)).toBe(tpe(2026, 7, 13, 8, 30));
  });

  it('skips Lunar New Year 2026: Wed 02-11 after the close → Mon 02-23', () => {
    expect(isTradingDay('2026-02-11')).toBe(true);
    expect(nextOpen(tpe(2026, 2, 11, 14, 30), isTradingDay)).toBe(tpe(2026, 2, 23, 8, 30));
    expect(nextOpen(tpe(2026, 2, 16, 10), isTradingDay)).toBe(tpe(2026, 2, 23, 8, 30));
  });

  it('after-hours entry opens at 14:00', () => {
    expect(nextOpen(at(13, 30), isTradingDay, 'afterHours')).toBe(at(14));
    expect(nextOpen(at(13, 59, 59, 999), isTradingDay, 'afterHours')).toBe(at(14));
    expect(nextOpen(at(14), isTradingDay, 'afterHours')).toBe(at(14));
    expect(nextOpen(at(14, 0, 0, 1), isTradingDay, 'afterHours')).toBe(tpe(2026, 7, 13, 14));
  });

  it('throws when the calendar never trades', () => {
    expect(() => nextOpen(at(10), () => false)).toThrow(RangeError);
  });
});

describe('orderEntryRejection names the phase and when entry opens', () => {
  it('regular orders', () => {
    expect(orderEntryRejection(at(8, 30), isTradingDay)).toBeNull();
    expect(orderEntryRejection(at(13, 29, 59, 999), isTradingDay)).toBeNull();
    expect(orderEntryRejection(at(8, 29, 59, 999), isTradingDay)).toEqual({
      rule: 'outsideSession',
      phase: 'closed',
      market: 'regular',
      opensAtMs: at(8, 30),
    });
    expect(orderEntryRejection(at(13, 30), isTradingDay)).toEqual({
      rule: 'outsideSession',
      phase: 'intermission',
      market: 'regular',
      opensAtMs: tpe(2026, 7, 13, 8, 30),
    });
    expect(orderEntryRejection(tpe(2026, 7, 11, 10), isTradingDay)?.opensAtMs).toBe(tpe(2026, 7, 13, 8, 30));
  });

  it('after-hours fixed-price orders', () => {
    expect(orderEntryRejection(at(10), isTradingDay, 'afterHours')).toEqual({
      rule: 'outsideSession',
      phase: 'continuous',
      market: 'afterHours',
      opensAtMs: at(14),
    });
    expect(orderEntryRejection(at(14), isTradingDay, 'afterHours')).toBeNull();
    expect(orderEntryRejection(at(14, 29, 59, 999), isTradingDay, 'afterHours')).toBeNull();
    expect(orderEntryRejection(at(14, 30), isTradingDay, 'afterHours')?.opensAtMs).toBe(tpe(2026, 7, 13, 14));
  });

  it('createTradingSession binds the calendar', () => {
    const s = createTradingSession(isTradingDay);
    expect(s.phaseAt(at(13, 25))).toBe('closingCall');
    expect(s.nextOpen(at(14, 30))).toBe(tpe(2026, 7, 13, 8, 30));
    expect(s.orderEntryRejection(at(9))).toBeNull();
  });
});

describe('tradingDayPredicate from the calendar exceptions agrees with the server calendar', () => {
  it('on every date 2015-01-01 … 2027-12-31', () => {
    const pred = tradingDayPredicate(calendarExceptions());
    let n = 0;
    for (let d = '2015-01-01'; d <= '2027-12-31'; d = addIsoDays(d, 1)) {
      expect(pred(d), d).toBe(isTradingDay(d));
      n++;
    }
    expect(n).toBe(4748); // 13 years, 3 of them leap (2016, 2020, 2024)
  });
  it('rejects malformed dates', () => {
    expect(() => tradingDayPredicate({ closed: [], open: [] })('2026-7-9')).toThrow(RangeError);
  });
});

describe('taipeiIsoDate: the Asia/Taipei calendar date of an instant', () => {
  const byZone = (ms: number) => DateTime.fromMillis(ms, { zone: 'Asia/Taipei' }).toISODate();

  it('agrees with the IANA zone at every local midnight and either side of it, 1975 to 2100', () => {
    // 1975–1979 still had daylight saving in Taipei: those instants go through the zone lookup.
    for (let ms = Date.UTC(1975, 0, 1); ms < Date.UTC(2100, 0, 1); ms += 86_400_000 * 7 + 3_600_000) {
      const midnight = DateTime.fromMillis(ms, { zone: 'Asia/Taipei' }).startOf('day').toMillis();
      for (const t of [midnight - 1, midnight, midnight + 1, ms]) expect(taipeiIsoDate(t)).toBe(byZone(t));
    }
  });

  it('answers each instant on its own, whatever was asked before', () => {
    const a = Date.UTC(2025, 5, 17, 15, 59, 59, 999); // 23:59:59.999 in Taipei
    expect(taipeiIsoDate(a)).toBe('2025-06-17');
    expect(taipeiIsoDate(a + 1)).toBe('2025-06-18');
    expect(taipeiIsoDate(a)).toBe('2025-06-17');
    expect(taipeiIsoDate(Date.UTC(1979, 6, 1, 15, 30))).toBe(byZone(Date.UTC(1979, 6, 1, 15, 30)));
  });
});
