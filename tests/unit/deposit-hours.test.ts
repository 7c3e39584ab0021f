/**
 * Deposit hours (contract/deposit-hours.ts) on the real TWSE calendar: half-open [09:30, 19:30)
 * Asia/Taipei, weekdays only, closed on the exchange's holidays, open on its make-up Saturdays;
 * the next opening across a weekend and across the 2026 Lunar New Year closure.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { DEPOSIT_HOURS_DEFAULT } from '../../contract/constants';
import { depositWindow, hhmmToMinutes } from '../../contract/deposit-hours';
import { tradingDayPredicate } from '../../contract/trading-session';
import { calendarExceptions } from '../../server/market/calendar';

const isTradingDay = tradingDayPredicate(calendarExceptions());
const at = (local: string) => DateTime.fromISO(local, { zone: 'Asia/Taipei' }).toMillis();
const hours = DEPOSIT_HOURS_DEFAULT;

describe('the calendar facts these cases rely on', () => {
  it('matches the bundled TWSE calendar', () => {
    expect(isTradingDay('2026-01-05')).toBe(true); // Monday
    expect(isTradingDay('2026-01-01')).toBe(false); // Thursday, New Year's Day (中華民國開國紀念日)
    expect(isTradingDay('2026-01-03')).toBe(false); // Saturday
    expect(isTradingDay('2018-12-22')).toBe(true); // Saturday make-up session
    expect(isTradingDay('2018-12-31')).toBe(false); // the Monday it made up for
    expect(isTradingDay('2026-07-10')).toBe(false); // Friday, unscheduled closure
    for (const d of ['2026-02-12', '2026-02-13', '2026-02-16', '2026-02-20'])
      expect(isTradingDay(d)).toBe(false);
    expect(isTradingDay('2026-02-23')).toBe(true);
  });
});

describe('depositWindow with the default hours (weekdays 09:30–19:30, holidays closed)', () => {
  const cases: Array<{ label: string; now: string; open: boolean; next: string | null }> = [
    { label: 'one second before opening', now: '2026-01-05T09:29:59', open: false, next: '2026-01-05T09:30' },
    {
      label: 'one millisecond before opening',
      now: '2026-01-05T09:29:59.999',
      open: false,
      next: '2026-01-05T09:30',
    },
    { label: 'at opening', now: '2026-01-05T09:30:00', open: true, next: null },
    { label: 'one second before closing', now: '2026-01-05T19:29:59', open: true, next: null },
    { label: 'one millisecond before closing', now: '2026-01-05T19:29:59.999', open: true, next: null },
    { label: 'at closing', now: '2026-01-05T19:30:00', open: false, next: '2026-01-06T09:30' },
    { label: 'midnight', now: '2026-01-06T00:00', open: false, next: '2026-01-06T09:30' },
    {
      label: 'Friday after closing → Monday',
      now: '2026-01-09T20:00',
      open: false,
      next: '2026-01-12T09:30',
    },
    { label: 'Saturday', now: '2026-01-03T10:00', open: false, next: '2026-01-05T09:30' },
    { label: 'Sunday', now: '2026-01-04T12:00', open: false, next: '2026-01-05T09:30' },
    {
      label: "New Year's Day (a Thursday holiday)",
      now: '2026-01-01T10:00',
      open: false,
      next: '2026-01-02T09:30',
    },
    {
      label: 'unscheduled closure 2026-07-10',
      now: '2026-07-10T10:00',
      open: false,
      next: '2026-07-13T09:30',
    },
    { label: 'make-up working Saturday 2018-12-22', now: '2018-12-22T10:00', open: true, next: null },
    // 2018-12-31 (Monday) was the day off that 2018-12-22 made up for; 2019-01-01 a holiday.
    { label: 'the Saturday after it', now: '2018-12-29T10:00', open: false, next: '2019-01-02T09:30' },
    {
      label: 'before the Lunar New Year closure → after it',
      now: '2026-02-11T19:30',
      open: false,
      next: '2026-02-23T09:30',
    },
    {
      label: 'inside the Lunar New Year closure',
      now: '2026-02-17T10:00',
      open: false,
      next: '2026-02-23T09:30',
    },
  ];
  it.each(cases)('$label ($now)', ({ now, open, next }) => {
    expect(depositWindow(at(now), hours, isTradingDay)).toEqual({
      openNow: open,
      nextOpenAt: next === null ? null : at(next),
    });
  });
});

describe('depositWindow with other settings', () => {
  it('holidaysClosed off: a weekday holiday is open, a weekend still closed', () => {
    const h = { ...hours, holidaysClosed: false };
    expect(depositWindow(at('2026-01-01T10:00'), h, isTradingDay).openNow).toBe(true);
    expect(depositWindow(at('2026-01-03T10:00'), h, isTradingDay)).toEqual({
      openNow: false,
      nextOpenAt: at('2026-01-05T09:30'),
    });
  });
  it('weekdaysOnly off: weekends open, holidays still closed', () => {
    const h = { ...hours, weekdaysOnly: false };
    expect(depositWindow(at('2026-01-03T10:00'), h, isTradingDay).openNow).toBe(true);
    expect(depositWindow(at('2026-01-01T10:00'), h, isTradingDay)).toEqual({
      openNow: false,
      nextOpenAt: at('2026-01-02T09:30'),
    });
  });
  it('both off: every day, still only between the hours', () => {
    const h = { ...hours, weekdaysOnly: false, holidaysClosed: false };
    expect(depositWindow(at('2026-02-17T09:30'), h, isTradingDay).openNow).toBe(true);
    expect(depositWindow(at('2026-02-17T19:30'), h, isTradingDay)).toEqual({
      openNow: false,
      nextOpenAt: at('2026-02-18T09:30'),
    });
  });
  it('other opening hours, and a close of 24:00 (end of day)', () => {
    const h = { ...hours, open: '00:00', close: '24:00' };
    expect(depositWindow(at('2026-01-05T00:00'), h, isTradingDay).openNow).toBe(true);
    expect(depositWindow(at('2026-01-05T23:59:59.999'), h, isTradingDay).openNow).toBe(true);
    expect(depositWindow(at('2026-01-09T23:59:59.999'), h, isTradingDay).openNow).toBe(true);
    expect(depositWindow(at('2026-01-10T00:00'), h, isTradingDay)).toEqual({
      openNow: false,
      nextOpenAt: at('2026-01-12T00:00'),
    });
  });
  it('an empty window never opens', () => {
    expect(
      depositWindow(at('2026-01-05T10:00'), { ...hours, open: '10:00', close: '10:00' }, isTradingDay),
    ).toEqual({
      openNow: false,
      nextOpenAt: null,
    });
  });
  it('parses HH:MM strictly', () => {
    expect(hhmmToMinutes('09:30')).toBe(570);
    expect(hhmmToMinutes('24:00')).toBe(1440);
    for (const bad of ['9:30', '24:01', '12:60', 'noon', ''])
      expect(() => hhmmToMinutes(bad)).toThrow(RangeError);
    expect(() => depositWindow(0, { ...hours, open: '9:30' }, isTradingDay)).toThrow(RangeError);
  });
});
