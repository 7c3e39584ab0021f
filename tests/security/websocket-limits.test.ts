/**
 * The `/ws` limits per client address (server/realtime/limits.ts) and the shared candle snapshots,
 * on the gateway core without sockets or timers (fake sockets and feed, a manual clock), so each
 * limit is checked exactly and fast:
 * - a connection beyond the address's limit is told `tooManyConnections` and closed with
 *   WS_CLOSE_TOO_MANY_CONNECTIONS; another address is not affected; a closed one frees its place;
 * - streams beyond the cost per connection and per address are refused `tooManySubscriptions`;
 *   unsubscribing (or closing) gives the cost back;
 * - snapshots beyond the address's bucket are refused `tooFrequent` and not subscribed; the
 *   bucket refills with time, not by closing every socket and reconnecting;
 * - many subscribers of one candle stream share one fetch and one snapshot text;
 * - the daily-history cache gives the same candles as building them from every row.
 */
import { describe, expect, it } from 'vitest';
import type { Candle, ClockState } from '../../contract/market';
import { WS_CLOSE_TOO_MANY_CONNECTIONS } from '../../contract/realtime';
import { dailyCandlesOf, type DailyRow } from '../../server/market/candles';
import { dailyHistoryCache, splitDailyHistory, withToday } from '../../server/market/daily-history';
import { createFeedListeners } from '../../server/market/feed-listeners';
import { createGatewayCore, type GatewayFeed } from '../../server/realtime/gateway';
import { streamCost, type WsLimits } from '../../server/realtime/limits';

const CLOCK = { source: 'stress', mode: 'replay', phase: 'open', speed: 1, now: 0 } as unknown as ClockState;

function fakeFeed() {
  const listeners = createFeedListeners('fake feed');
  let fetches = 0;
  const feed: GatewayFeed = {
    onQuote: listeners.onQuote,
    onDepth: listeners.onDepth,
    onCandle: listeners.onCandle,
    onTrade: listeners.onTrade,
    quote: () => undefined,
    depth: () => undefined,
    trades: () => [],
    async candles(): Promise<Candle[]> {
      fetches++;
      return [
        { ts: 0, openMinor: 1, highMinor: 1, lowMinor: 1, closeMinor: 1, volumeShares: 1, turnoverMinor: 1 },
      ];
    },
    isTradable: (s) => /^\d{4}$/.test(s),
    clock: () => CLOCK,
  };
  return { feed, fetches: () => fetches };
}

class FakeSocket {
  readyState = 1;
  bufferedAmount = 0;
  sent: string[] = [];
  closed: { code: number; reason: string } | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  close(code: number, reason: string) {
    this.closed = { code, reason };
    this.readyState = 3;
  }
  /** Error keys received, in order. */
  errors(): string[] {
    return this.sent.flatMap((t) => {
      const frame = JSON.parse(t);
      return (Array.isArray(frame) ? frame : [frame]).flatMap((m) => (m.type === 'error' ? [m.msg] : []));
    });
  }
  /** Sent texts containing this string. */
  count(needle: string): number {
    return this.sent.filter((t) => t.includes(needle)).length;
  }
}

const LIMITS: WsLimits = {
  connectionsPerAddress: 3,
  costPerConnection: 100,
  costPerAddress: 150,
  snapshotCostPerS: 100,
  snapshotBurst: 400,
};

const syms = (n: number, from = 1000) => Array.from({ length: n }, (_, i) => String(from + i));

function setup(limits: WsLimits = LIMITS) {
  const f = fakeFeed();
  const clock = { now: 0 };
  const core = createGatewayCore(f.feed, { timers: false, now: () => clock.now, limits });
  const open = (address = '10.0.0.1') => {
    const ws = new FakeSocket();
    return { ws, conn: core.open(ws, address) };
  };
  const sub = (c: ReturnType<typeof open>, symbols: string[], channel = 'quotes', period?: string) =>
    core.message(c.conn, JSON.stringify({ op: 'sub', channel, symbols, ...(period ? { period } : {}) }));
  return { core, clock, open, sub, fetches: f.fetches };
}

describe('per-address connection limit', () => {
  it('tells and closes a connection beyond the limit; other addresses and freed places are let in', () => {
    const { core, open } = setup();
    const admitted = [open(), open(), open()];
    expect(admitted.every((c) => c.ws.closed === null)).toBe(true);
    const fourth = open();
    expect(fourth.ws.errors()).toEqual(['tooManyConnections']);
    expect(fourth.ws.closed).toEqual({ code: WS_CLOSE_TOO_MANY_CONNECTIONS, reason: 'tooManyConnections' });
    expect(open('10.0.0.2').ws.closed).toBeNull();
    core.close(fourth.conn); // the refused socket's close event changes nothing
    expect(open().ws.closed).not.toBeNull();
    core.close(admitted[0]!.conn);
    expect(open().ws.closed).toBeNull();
    expect(core.stats()).toMatchObject({ sockets: 4, refusedConnections: 2 });
  });
});

describe('subscription cost limits', () => {
  it('refuses streams beyond the cost per connection, then per address; unsubscribing gives it back', async () => {
    const { core, open, sub } = setup();
    const daily = streamCost('candles', '1d');
    expect(daily).toBeGreaterThan(streamCost('candles', '1m'));
    expect(streamCost('candles', '1m')).toBeGreaterThan(streamCost('quotes', undefined));
    const a = open();
    // 100 per connection: 5 daily candle streams fit, the 6th does not.
    await sub(a, syms(6), 'candles', '1d');
    expect(a.ws.errors()).toEqual(['tooManySubscriptions']);
    expect(a.ws.count('"kind":"snapshot"')).toBeGreaterThan(0);
    // 150 per address: a second connection gets 50 more, in quotes (cost 1).
    const b = open();
    await sub(b, syms(60, 2000));
    expect(b.ws.errors()).toEqual(Array(10).fill('tooManySubscriptions'));
    // Giving back: a unsubscribes two daily streams (40), b may hold 40 more quotes.
    await core.message(
      a.conn,
      JSON.stringify({ op: 'unsub', channel: 'candles', period: '1d', symbols: syms(2) }),
    );
    await sub(b, syms(41, 3000));
    expect(b.ws.errors()).toHaveLength(11);
    // Closing gives back the rest.
    core.close(a.conn);
    const c = open();
    await sub(c, syms(60, 4000));
    expect(c.ws.errors()).toEqual([]);
    expect(core.stats().refusedSubscriptions).toBe(12);
  });
});

describe('snapshot bucket per address', () => {
  it('refuses snapshots beyond the bucket with tooFrequent (not subscribed), and refills', async () => {
    const { core, clock, open, sub } = setup({
      ...LIMITS,
      costPerConnection: 10_000,
      costPerAddress: 10_000,
    });
    const a = open();
    await sub(a, syms(10), 'candles', '1d'); // 200 of 400
    // Re-subscribing held streams costs snapshots too: 200 more empties the bucket.
    await sub(a, syms(10), 'candles', '1d');
    expect(a.ws.errors()).toEqual([]);
    const b = open();
    await sub(b, syms(3, 5000), 'candles', '1d');
    expect(b.ws.errors()).toEqual(Array(3).fill('tooFrequent'));
    expect(core.stats()).toMatchObject({ refusedSnapshots: 3, streams: 10 });
    clock.now += 1_000; // +100
    await sub(b, syms(6, 5000), 'candles', '1d');
    expect(b.ws.errors().slice(3)).toEqual(['tooFrequent']);
    expect(core.stats().streams).toBe(15);
    // Closing every socket and reconnecting at once does not refill it.
    core.close(a.conn);
    core.close(b.conn);
    clock.now += 1_500; // +150: room for 7 more
    const c = open();
    await sub(c, syms(8, 6000), 'candles', '1d');
    expect(c.ws.errors()).toEqual(['tooFrequent']);
    // Once refilled and idle, the address is forgotten.
    core.close(c.conn);
    clock.now += 10_000;
    open('10.9.9.9');
    expect(core.stats().addresses).toBe(1);
  });
});

describe('shared candle snapshots', () => {
  it('one fetch and one text per stream and flush, however many subscribers ask', async () => {
    const { core, open, sub, fetches } = setup({ ...LIMITS, connectionsPerAddress: 100 });
    const socks = Array.from({ length: 20 }, (_, i) => open(`10.0.1.${i}`));
    await Promise.all(socks.map((s) => sub(s, ['2330'], 'candles', '1d')));
    expect(fetches()).toBe(1);
    const texts = socks.map((s) => s.ws.sent.find((t) => t.includes('"kind":"snapshot"')));
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]).toContain('"symbol":"2330"');
    core.flush(); // nothing changed: the next subscriber still shares the fetch
    await sub(open('10.0.2.1'), ['2330'], 'candles', '1d');
    expect(fetches()).toBe(1);
  });
});

describe('daily history cache', () => {
  const rows: DailyRow[] = [];
  // Three years of weekday rows with varying prices and sometimes unknown turnover.
  for (let d = Date.UTC(2022, 0, 3), i = 0; d < Date.UTC(2025, 0, 1); d += 86_400_000) {
    if ([0, 6].includes(new Date(d).getUTCDay())) continue;
    const p = 1000 + ((i * 37) % 200);
    rows.push({
      date: new Date(d).toISOString().slice(0, 10),
      openMinor: p,
      highMinor: p + 10,
      lowMinor: p - 10,
      closeMinor: p + (i % 7) - 3,
      volumeShares: 1000 + i,
      turnoverMinor: i % 50 === 0 ? null : p * 1000,
    });
    i++;
  }

  it.each(['1d', '1M', '1y'] as const)(
    '%s: the same candles as from every row, with and without today',
    (period) => {
      for (const cut of [rows.length - 1, rows.length - 23, 260]) {
        const history = rows.slice(0, cut);
        const today = rows[cut]!;
        const h = splitDailyHistory(history, period);
        expect(withToday(h, today, period)).toEqual(dailyCandlesOf([...history, today], period));
        expect(withToday(h, null, period)).toEqual(dailyCandlesOf(history, period));
      }
    },
  );

  it('loads once per instrument, period and date; a new date replaces it; a failure is retried', async () => {
    const loads: string[] = [];
    let fail = true;
    const cache = dailyHistoryCache(async (symbol, date) => {
      loads.push(`${symbol}@${date}`);
      if (symbol === 'bad' && fail) throw new Error('db down');
      return rows.filter((r) => r.date < date);
    });
    const [x, y] = await Promise.all([cache('2330', '1d', '2024-06-03'), cache('2330', '1d', '2024-06-03')]);
    expect(x).toBe(y);
    await cache('2330', '1M', '2024-06-03');
    expect(loads).toEqual(['2330@2024-06-03', '2330@2024-06-03']);
    const next = await cache('2330', '1d', '2024-06-04');
    expect(next).not.toBe(x);
    expect(next.head.length).toBe(x.head.length + 1);
    await expect(cache('bad', '1d', '2024-06-03')).rejects.toThrow('db down');
    fail = false;
    await expect(cache('bad', '1d', '2024-06-03')).resolves.toBeTruthy();
  });
});
