/**
 * Market clock (server/market/clock.ts): replay mapping wall → (session k, offset), the speed
 * factor, and exchange mode following Asia/Taipei hours and the TWSE calendar.
 */
import { describe, expect, it } from 'vitest';
import { clockStateSchema } from '../../contract/market';
import { SESSION_MS } from '../../server/market/calendar';
import { createClock, DEFAULT_ANCHOR_MS } from '../../server/market/clock';

const tpe = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  Date.UTC(y, mo - 1, d, h - 8, mi, s, ms);
const MIN = 60_000;

describe('replay clock', () => {
  it('default anchor is 2026-01-01T00:00+08:00', () => {
    expect(DEFAULT_ANCHOR_MS).toBe(Date.UTC(2025, 11, 31, 16, 0));
  });

  it('maps wall time to session index and offset at speed 1', () => {
    let wall = DEFAULT_ANCHOR_MS;
    const c = createClock({ now: () => wall });
    expect(c.mode).toBe('replay');
    expect(c.position()).toMatchObject({ phase: 'open', session: 0, offsetMs: 0, sessionDate: null });
    wall += 90 * MIN;
    expect(c.position()).toMatchObject({ session: 0, offsetMs: 90 * MIN });
    wall = DEFAULT_ANCHOR_MS + SESSION_MS - 1;
    expect(c.position()).toMatchObject({ session: 0, offsetMs: SESSION_MS - 1 });
    wall = DEFAULT_ANCHOR_MS + SESSION_MS;
    expect(c.position()).toMatchObject({ session: 1, offsetMs: 0 });
    wall = DEFAULT_ANCHOR_MS + 7 * SESSION_MS + 5;
    expect(c.position()).toMatchObject({ session: 7, offsetMs: 5 });
    wall = DEFAULT_ANCHOR_MS - 1; // before the anchor: the previous session's last ms
    expect(c.position()).toMatchObject({ session: -1, offsetMs: SESSION_MS - 1 });
  });

  it('speed compresses sessions: 60 → one session per 4.5 wall minutes', () => {
    let wall = DEFAULT_ANCHOR_MS;
    const c = createClock({ speed: 60, now: () => wall });
    wall += MIN;
    expect(c.position()).toMatchObject({ session: 0, offsetMs: 60 * MIN });
    wall = DEFAULT_ANCHOR_MS + 4.5 * MIN;
    expect(c.position()).toMatchObject({ session: 1, offsetMs: 0 });
    wall = DEFAULT_ANCHOR_MS + 9 * MIN + 200;
    expect(c.position()).toMatchObject({ session: 2, offsetMs: 12_000 });
    expect(c.speed).toBe(60);
  });

  it('honours a custom anchor and is restart-stable', () => {
    const anchorMs = tpe(2026, 3, 1);
    const wall = anchorMs + 3 * SESSION_MS + 1234;
    const a = createClock({ anchorMs, now: () => wall }).position();
    const b = createClock({ anchorMs, now: () => wall }).position();
    expect(a).toEqual(b);
    expect(a).toMatchObject({ session: 3, offsetMs: 1234 });
  });

  it('market timestamps are the replay date at 09:00 Asia/Taipei + offset', () => {
    const wall = DEFAULT_ANCHOR_MS + 30 * MIN;
    const c = createClock({ now: () => wall });
    const pos = c.position();
    expect(c.sessionBaseMs(pos, '2026-07-31')).toBe(tpe(2026, 7, 31, 9, 0));
    const state = c.state(pos, '2026-07-31');
    expect(clockStateSchema.parse({ source: 'replay', ...state })).toEqual({
      source: 'replay',
      mode: 'replay',
      phase: 'open',
      speed: 1,
      now: tpe(2026, 7, 31, 9, 30),
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
    expect(c.state(pos, '2026-06-01')).toEqual({ mode: 'exchange', phase: 'open', speed: 1, now: wall });
  });
});
