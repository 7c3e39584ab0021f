/**
 * Market clock (server/market/clock.ts): replay mapping wall → (session k, offset), the speed
 * factor, and exchange mode following Asia/Taipei hours and the TWSE calendar.
 */
import { describe, expect, it } from 'vitest';
import { clockStateSchema } from '../../contract/market';
import { SESSION_MS } from '../../server/market/calendar';
import type { TradingPhase } from '../../contract/trading-session';
import { createClock, DEFAULT_ANCHOR_MS, PRE_OPEN_MS, REPLAY_DAY_MS } from '../../server/market/clock';

const tpe = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  Date.UTC(y, mo - 1, d, h - 8, mi, s, ms);
const MIN = 60_000;

describe('replay clock', () => {
  const H = 60 * MIN;
  /** Wall instant of market time hh:mm(:ss.ms) of replayed day k, at `speed`. */
  const wallOf = (k: number, hh: number, mm: number, speed = 1, ss = 0, ms = 0) =>
    DEFAULT_ANCHOR_MS + (k * REPLAY_DAY_MS + (hh - 9) * H + mm * MIN + ss * 1000 + ms) / speed;

  it('default anchor is 2026-01-01T00:00+08:00, the 09:00 of replayed day 0', () => {
    expect(DEFAULT_ANCHOR_MS).toBe(Date.UTC(2025, 11, 31, 16, 0));
    expect(REPLAY_DAY_MS).toBe(360 * MIN);
    expect(PRE_OPEN_MS).toBe(30 * MIN);
    const c = createClock({ now: () => DEFAULT_ANCHOR_MS });
    expect(c.mode).toBe('replay');
    expect(c.position()).toMatchObject({
      phase: 'open',
      tradingPhase: 'continuous',
      session: 0,
      offsetMs: 0,
      timeOfDayMs: 9 * H,
      sessionDate: null,
    });
  });

  // Every phase boundary of the replayed day, at speed 1 and 60: [hh, mm, ss, ms, phase, quote
  // phase, offset after 09:00 as the feed sees it].
  const boundaries: Array<[number, number, number, number, TradingPhase, 'open' | 'closed', number]> = [
    [8, 30, 0, 0, 'preOpen', 'closed', 0],
    [8, 59, 59, 999, 'preOpen', 'closed', 0],
    [9, 0, 0, 0, 'continuous', 'open', 0],
    [13, 24, 59, 999, 'continuous', 'open', 265 * MIN - 1],
    [13, 25, 0, 0, 'closingCall', 'open', 265 * MIN],
    [13, 29, 59, 999, 'closingCall', 'open', SESSION_MS - 1],
    [13, 30, 0, 0, 'intermission', 'closed', SESSION_MS],
    [13, 59, 59, 999, 'intermission', 'closed', SESSION_MS],
    [14, 0, 0, 0, 'afterHoursEntry', 'closed', SESSION_MS],
    [14, 29, 59, 999, 'afterHoursEntry', 'closed', SESSION_MS],
  ];
  for (const speed of [1, 60])
    it(`phase boundaries of a replayed day at speed ${speed}`, () => {
      let wall = 0;
      const c = createClock({ speed, now: () => wall });
      for (const k of [0, 3, -2])
        for (const [hh, mm, ss, ms, tradingPhase, phase, offsetMs] of boundaries) {
          wall = wallOf(k, hh, mm, speed, ss, ms);
          const pos = c.position();
          const label = `${k} ${hh}:${mm}:${ss}.${ms}`;
          expect({ label, ...pos }).toMatchObject({ label, session: k, tradingPhase, phase, offsetMs });
          expect(pos.timeOfDayMs).toBe(hh * H + mm * MIN + ss * 1000 + ms);
          expect(c.wallAt(k, pos.timeOfDayMs - 9 * H)).toBe(wall);
        }
      // 14:30 of day k is 08:30 of day k + 1: the next replayed day starts with its pre-open.
      wall = wallOf(3, 14, 30, speed);
      expect(c.position()).toMatchObject({ session: 4, tradingPhase: 'preOpen', offsetMs: 0 });
      expect(c.position().timeOfDayMs).toBe(8 * H + 30 * MIN);
    });

  it('speed compresses days: 60 → one 08:30–14:30 day per 6 wall minutes', () => {
    let wall = DEFAULT_ANCHOR_MS;
    const c = createClock({ speed: 60, now: () => wall });
    wall += MIN;
    expect(c.position()).toMatchObject({ session: 0, offsetMs: 60 * MIN });
    wall = DEFAULT_ANCHOR_MS + 6 * MIN;
    expect(c.position()).toMatchObject({ session: 1, offsetMs: 0, tradingPhase: 'continuous' });
    wall = DEFAULT_ANCHOR_MS + 12 * MIN + 200;
    expect(c.position()).toMatchObject({ session: 2, offsetMs: 12_000 });
    expect(c.speed).toBe(60);
  });

  it('honours a custom anchor and is restart-stable', () => {
    const anchorMs = tpe(2026, 3, 1);
    const wall = anchorMs + 3 * REPLAY_DAY_MS + 1234;
    const a = createClock({ anchorMs, now: () => wall }).position();
    const b = createClock({ anchorMs, now: () => wall }).position();
    expect(a).toEqual(b);
    expect(a).toMatchObject({ session: 3, offsetMs: 1234 });
  });

  it('market time is the replayed date at its time of day; the state names the replayed date', () => {
    let wall = DEFAULT_ANCHOR_MS + 30 * MIN;
    const c = createClock({ now: () => wall });
    let pos = c.position();
    expect(c.sessionBaseMs(pos, '2026-07-31')).toBe(tpe(2026, 7, 31, 9, 0));
    expect(clockStateSchema.parse({ source: 'replay', ...c.state(pos, '2026-07-31') })).toEqual({
      source: 'replay',
      mode: 'replay',
      phase: 'open',
      tradingPhase: 'continuous',
      speed: 1,
      now: tpe(2026, 7, 31, 9, 30),
      replayDate: '2026-07-31',
    });
    wall = wallOf(1, 8, 45);
    pos = c.position();
    expect(c.state(pos, '2026-08-03')).toMatchObject({
      phase: 'closed',
      tradingPhase: 'preOpen',
      now: tpe(2026, 8, 3, 8, 45),
      replayDate: '2026-08-03',
    });
    wall = wallOf(1, 14, 10);
    expect(c.state(c.position(), '2026-08-03')).toMatchObject({
      tradingPhase: 'afterHoursEntry',
      now: tpe(2026, 8, 3, 14, 10),
    });
  });

  it('rejects a non-positive speed', () => {
    expect(() => createClock({ speed: 0 })).toThrow(RangeError);
    expect(() => createClock({ speed: Number.NaN })).toThrow(RangeError);
  });
});

describe('exchange clock', () => {
  const at = (wall: number) => createClock({ mode: 'exchange', speed: 60, now: () => wall });

  it('phase at 08:59 / 09:00 / 13:29 / 13:30 on a trading day', () => {
    expect(at(tpe(2026, 7, 9, 8, 59)).position()).toMatchObject({
      phase: 'closed',
      tradingPhase: 'preOpen',
      sessionDate: '2026-07-08',
      offsetMs: SESSION_MS,
    });
    expect(at(tpe(2026, 7, 9, 9, 0)).position()).toMatchObject({
      phase: 'open',
      sessionDate: '2026-07-09',
      offsetMs: 0,
    });
    expect(at(tpe(2026, 7, 9, 13, 29)).position()).toMatchObject({
      phase: 'open',
      sessionDate: '2026-07-09',
      offsetMs: 269 * MIN,
    });
    expect(at(tpe(2026, 7, 9, 13, 30)).position()).toMatchObject({
      phase: 'closed',
      tradingPhase: 'intermission',
      sessionDate: '2026-07-09',
      offsetMs: SESSION_MS,
    });
    expect(at(tpe(2026, 7, 9, 20, 0)).position()).toMatchObject({
      phase: 'closed',
      sessionDate: '2026-07-09',
      offsetMs: SESSION_MS,
    });
  });

  it('closed on holidays, frozen at the last session', () => {
    expect(at(tpe(2026, 7, 10, 10, 0)).position()).toMatchObject({
      phase: 'closed',
      sessionDate: '2026-07-09',
    }); // unscheduled closure
    expect(at(tpe(2026, 7, 11, 10, 0)).position()).toMatchObject({
      phase: 'closed',
      sessionDate: '2026-07-09',
    }); // Saturday
    expect(at(tpe(2026, 2, 16, 10, 0)).position()).toMatchObject({
      phase: 'closed',
      sessionDate: '2026-02-11',
    }); // Lunar New Year
    expect(at(tpe(2026, 7, 13, 9, 0)).position()).toMatchObject({ phase: 'open', sessionDate: '2026-07-13' });
  });

  it('session index counts trading days since the anchor date', () => {
    expect(at(tpe(2026, 1, 2, 10, 0)).position().session).toBe(0); // first trading day of 2026
    expect(at(tpe(2026, 1, 5, 10, 0)).position().session).toBe(1);
    const thu = at(tpe(2026, 7, 9, 10, 0)).position().session;
    expect(at(tpe(2026, 7, 10, 10, 0)).position().session).toBe(thu); // closed: still Thursday's session
    expect(at(tpe(2026, 7, 13, 10, 0)).position().session).toBe(thu + 1);
    expect(at(tpe(2025, 12, 31, 10, 0)).position().session).toBe(-1);
  });

  it('timestamps are real wall time; speed is ignored', () => {
    const wall = tpe(2026, 7, 9, 10, 15, 30);
    const c = at(wall);
    const pos = c.position();
    expect(c.speed).toBe(1);
    expect(pos.offsetMs).toBe(75 * MIN + 30_000);
    expect(c.sessionBaseMs(pos, '2026-06-01')).toBe(tpe(2026, 7, 9, 9, 0));
    expect(c.state(pos, '2026-06-01')).toEqual({
      mode: 'exchange',
      phase: 'open',
      tradingPhase: 'continuous',
      speed: 1,
      now: wall,
      replayDate: '2026-06-01',
    });
  });
});
