/**
 * TWSE calendar (server/market/calendar.ts) on real dates from
 * seed-data/calendar/twse_calendar_exceptions_2015_2026.csv, and the 09:00–13:30 Asia/Taipei
 * session boundaries. Instants are written as explicit UTC (Taipei = UTC+8, no DST).
 */
import { describe, expect, it } from 'vitest';
import {
  dayStartMs,
  isTradingDay,
  nextTradingDay,
  previousTradingDay,
  sessionPhaseAt,
  sessionStartMs,
  SESSION_MS,
  taipeiDate,
  tradingDaysBetween,
} from '../../server/market/calendar';

/** Epoch ms of a Taipei wall time. */
const tpe = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  Date.UTC(y, mo - 1, d, h - 8, mi, s, ms);

describe('isTradingDay', () => {
  it('weekdays trade, weekends do not', () => {
    expect(isTradingDay('2026-07-09')).toBe(true); // Thu
    expect(isTradingDay('2026-07-13')).toBe(true); // Mon
    expect(isTradingDay('2026-07-11')).toBe(false); // Sat
    expect(isTradingDay('2026-07-12')).toBe(false); // Sun
  });
  it('holidays from the exceptions file', () => {
    expect(isTradingDay('2026-02-16')).toBe(false); // Lunar New Year's Eve holiday (Mon)
    expect(isTradingDay('2026-02-12')).toBe(false); // settlement-only day, no trading
    expect(isTradingDay('2026-02-27')).toBe(false); // Peace Memorial Day (observed)
    expect(isTradingDay('2026-07-10')).toBe(false); // unscheduled closure (absent from official July files)
    expect(isTradingDay('2024-07-24')).toBe(false); // typhoon
    expect(isTradingDay('2025-09-29')).toBe(false); // new 2025 holiday
    expect(isTradingDay('2026-01-01')).toBe(false);
    expect(isTradingDay('2026-01-02')).toBe(true);
  });
  it('Saturday make-up sessions are trading days', () => {
    expect(isTradingDay('2016-01-30')).toBe(true);
    expect(isTradingDay('2018-12-22')).toBe(true);
    expect(isTradingDay('2018-12-29')).toBe(false);
  });
  it('beyond the file: Mon–Fri', () => {
    expect(isTradingDay('2027-03-03')).toBe(true);
    expect(isTradingDay('2027-03-06')).toBe(false);
  });
  it('rejects malformed dates', () => {
    expect(() => isTradingDay('2026-7-9')).toThrow(RangeError);
    expect(() => isTradingDay('2026-02-30')).toThrow(RangeError);
  });
});

describe('previous / next trading day', () => {
  it('skips holidays and weekends', () => {
    expect(previousTradingDay('2026-07-13')).toBe('2026-07-09'); // over the 07-10 closure and the weekend
    expect(nextTradingDay('2026-07-09')).toBe('2026-07-13');
    expect(previousTradingDay('2026-02-23')).toBe('2026-02-11'); // New Year closure 02-12 … 02-20
    expect(nextTradingDay('2026-02-11')).toBe('2026-02-23');
    expect(previousTradingDay('2016-02-01')).toBe('2016-01-30'); // Saturday session
  });
  it('counts trading days in [from, to)', () => {
    expect(tradingDaysBetween('2026-01-01', '2026-01-02')).toBe(0);
    expect(tradingDaysBetween('2026-01-01', '2026-01-05')).toBe(1); // 01-02 only
    expect(tradingDaysBetween('2026-07-09', '2026-07-14')).toBe(2); // 07-09, 07-13
    expect(tradingDaysBetween('2026-07-14', '2026-07-09')).toBe(-2);
    expect(tradingDaysBetween('2026-02-11', '2026-02-24')).toBe(2); // 02-11, 02-23
  });
});

describe('session phase (continuous 09:00 ≤ t < 13:30 Asia/Taipei)', () => {
  it('boundaries on a trading day', () => {
    expect(sessionPhaseAt(tpe(2026, 7, 9, 8, 59, 59, 999))).toBe('closed');
    expect(sessionPhaseAt(tpe(2026, 7, 9, 9, 0))).toBe('open');
    expect(sessionPhaseAt(tpe(2026, 7, 9, 13, 29, 59, 999))).toBe('open');
    expect(sessionPhaseAt(tpe(2026, 7, 9, 13, 30))).toBe('closed');
    expect(sessionPhaseAt(tpe(2026, 7, 9, 23, 0))).toBe('closed');
  });
  it('closed all day on holidays and weekends', () => {
    expect(sessionPhaseAt(tpe(2026, 2, 16, 10, 0))).toBe('closed');
    expect(sessionPhaseAt(tpe(2026, 7, 10, 10, 0))).toBe('closed');
    expect(sessionPhaseAt(tpe(2026, 7, 11, 10, 0))).toBe('closed');
    expect(sessionPhaseAt(tpe(2016, 1, 30, 10, 0))).toBe('open');
  });
  it('Taipei dates and session start instants', () => {
    expect(taipeiDate(tpe(2026, 7, 9, 0, 0))).toBe('2026-07-09');
    expect(taipeiDate(tpe(2026, 7, 9, 0, 0) - 1)).toBe('2026-07-08'); // 15:59:59.999 UTC
    expect(dayStartMs('2026-07-09')).toBe(Date.UTC(2026, 6, 8, 16, 0));
    expect(sessionStartMs('2026-07-09')).toBe(Date.UTC(2026, 6, 9, 1, 0));
    expect(SESSION_MS).toBe(270 * 60 * 1000);
  });
});
