/**
 * The `/ws` gateway over a real socket, on the wall clock at the default speed 1: a snapshot then
 * deltas whose seq rises by exactly one per stream, unsubscribe stops a stream, bad messages get
 * an error frame, heartbeats carry the clock labelled with its source, and the first page of
 * the market list shows a price change within 5 seconds at any hour.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../contract/realtime';
import { startHarness, TEST_SYMBOLS, type Harness } from './harness';

let h: Harness;
let url: string;
beforeAll(async () => {
  h = await startHarness({ marketSpeed: 1 }, { realClock: true });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address();
  url = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/ws`;
});
afterAll(async () => h?.close());

/** Opens a socket and records every frame (parsed) with its arrival time. */
async function open(): Promise<{ ws: WebSocket; frames: Array<{ at: number; m: ServerMessage }> }> {
  const ws = new WebSocket(url);
  const frames: Array<{ at: number; m: ServerMessage }> = [];
  ws.on('message', (raw) => frames.push({ at: Date.now(), m: JSON.parse(raw.toString()) }));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, frames };
}

const waitFor = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return cond();
};

it('streams snapshots then gap-free deltas, and a visible price change within 5 s at speed 1', async () => {
  const { ws, frames } = await open();
  expect(frames[0]?.m).toMatchObject({ type: 'hb', clock: { source: 'replay', mode: 'replay', speed: 1 } });
  const t0 = Date.now();
  ws.send(JSON.stringify({ op: 'sub', channel: 'quotes', symbols: TEST_SYMBOLS }));
  const quotes = () =>
    frames.filter((f) => f.m.type === 'quote').map((f) => f.m as Extract<ServerMessage, { type: 'quote' }>);
  expect(
    await waitFor(() => quotes().filter((q) => q.kind === 'snapshot').length === TEST_SYMBOLS.length, 2_000),
  ).toBe(true);

  const first = new Map(
    quotes()
      .filter((q) => q.kind === 'snapshot')
      .map((q) => [q.symbol, q.data.lastMinor]),
  );
  const moved = () => quotes().some((q) => q.kind === 'delta' && q.data.lastMinor !== first.get(q.symbol));
  expect(await waitFor(moved, 5_000)).toBe(true);
  expect(Date.now() - t0).toBeLessThan(5_000);

  // Per stream: the first delta follows the snapshot's seq, then +1 each time.
  for (const symbol of TEST_SYMBOLS) {
    const seqs = quotes()
      .filter((q) => q.symbol === symbol)
      .map((q) => q.seq);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1]! + 1);
  }
  ws.close();
});

it('stops a stream on unsub, answers bad frames with an error, and refuses unknown symbols', async () => {
  const { ws, frames } = await open();
  ws.send(JSON.stringify({ op: 'sub', channel: 'depth', symbols: ['2330'] }));
  expect(await waitFor(() => frames.some((f) => f.m.type === 'depth'), 2_000)).toBe(true);
  const depth = frames.find((f) => f.m.type === 'depth')!.m as Extract<ServerMessage, { type: 'depth' }>;
  expect(depth.data.bids).toHaveLength(5);
  expect(depth.data.asks).toHaveLength(5);
  expect(depth.data.bids[0]!.priceMinor).toBeLessThan(depth.data.asks[0]!.priceMinor);

  ws.send(JSON.stringify({ op: 'unsub', channel: 'depth', symbols: ['2330'] }));
  await new Promise((r) => setTimeout(r, 300)); // let the unsub land
  const after = Date.now();
  await new Promise((r) => setTimeout(r, 1_500));
  expect(frames.filter((f) => f.m.type === 'depth' && f.at > after)).toEqual([]);

  ws.send('{not json');
  ws.send(JSON.stringify({ op: 'sub', channel: 'quotes', symbols: ['9999'] }));
  expect(await waitFor(() => frames.filter((f) => f.m.type === 'error').length === 2, 2_000)).toBe(true);
  const errors = frames.filter((f) => f.m.type === 'error').map((f) => (f.m as { msg: string }).msg);
  expect(errors).toEqual(['parameterError', 'productNotFound']);

  ws.send(JSON.stringify({ op: 'ping' }));
  expect(await waitFor(() => frames.filter((f) => f.m.type === 'hb').length >= 2, 2_000)).toBe(true);
  ws.close();
});

it('sends the session so far as a candle snapshot, then updates to the current candle', async () => {
  const { ws, frames } = await open();
  ws.send(JSON.stringify({ op: 'sub', channel: 'candles', symbols: ['2330'], period: '1m' }));
  const candles = () =>
    frames
      .filter((f) => f.m.type === 'candles')
      .map((f) => f.m as Extract<ServerMessage, { type: 'candles' }>);
  expect(await waitFor(() => candles().some((c) => c.kind === 'delta'), 5_000)).toBe(true);
  const snap = candles()[0]!;
  expect(snap.kind).toBe('snapshot');
  expect(snap.period).toBe('1m');
  const delta = candles().find((c) => c.kind === 'delta')!;
  expect(delta.data[0]!.ts).toBeGreaterThanOrEqual(snap.data.at(-1)?.ts ?? 0);
  ws.close();
});
