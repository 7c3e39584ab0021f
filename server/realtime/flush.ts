/**
 * The gateway's flush and heartbeat (gateway.ts "Conflation"): every dirty stream builds ONE
 * delta (seq + 1), serialised once and queued for each subscriber within its budget (one over it
 * skips the flush and gets a fresh snapshot once drained); drained sockets get their resync
 * snapshots and support `resync`; each socket then gets its messages as array frames; sockets
 * over budget too long are closed. Cost per flush: O(dirty streams + their subscriptions).
 *
 * Errors: none thrown (closed sockets are skipped; a failed candle resync fetch leaves the
 * stream missed).
 */
import { checkSlow } from './connections';
import type { Conn, GatewayState, Stream } from './gateway-state';
import { defer, heartbeatText, sendable, sendReply, sendStreamParts } from './outbound';
import { fetchCandles } from './registry';
import { candleSnapshotText, deltaMessage, syncSnapshot } from './streams';

/** Notes c as visited by this flush, and whether it is over its budget (then it skips it). */
function visit(g: GatewayState, c: Conn): void {
  c.mark = g.flushNo;
  c.blocked = !sendable(g, c);
  if (c.blocked) g.counters.skippedFlushes++;
  g.visited.push(c);
}

/** Adds a message (of stream s; null: an error) to c's frame of this flush. */
function queue(c: Conn, text: string, s: Stream | null): void {
  c.out.push(text);
  c.outStreams.push(s);
}

/** Queues fresh snapshots of the streams a drained socket missed (candles: when fetched). */
function resync(g: GatewayState, c: Conn): void {
  for (const [s, inFlight] of c.missed) {
    if (inFlight) continue;
    if (s.channel === 'candles') {
      c.missed.set(s, true);
      void fetchCandles(g, s).then((data) => {
        if (c.closed || !c.streams.has(s) || c.missed.get(s) !== true) return;
        c.missed.delete(s);
        if (c.missed.size === 0) g.resyncing.delete(c);
        if (!sendable(g, c)) return defer(g, c, s);
        g.counters.resyncSnapshots++;
        sendStreamParts(g, c, [candleSnapshotText(s, data)], [s]);
      });
      continue;
    }
    c.missed.delete(s);
    const text = syncSnapshot(g.feed, s);
    if (text) {
      queue(c, text, s);
      g.counters.resyncSnapshots++;
    }
  }
  if (c.missed.size === 0) g.resyncing.delete(c);
}

/** Builds each dirty stream's delta once and queues it for its subscribers (or defers it). */
function flushStreams(g: GatewayState): void {
  for (const s of g.dirty) {
    s.dirty = false;
    s.flushes++;
    if (s.subs.size === 0) {
      deltaMessage(s); // only a snapshot is being fetched: consume, send nothing
      continue;
    }
    s.seq++;
    const msg = deltaMessage(s);
    if (!msg) {
      s.seq--; // nothing to say (cannot happen for a dirty stream; keeps seq gap-free anyway)
      continue;
    }
    const text = JSON.stringify(msg);
    for (const c of s.subs) {
      if (c.mark !== g.flushNo) visit(g, c);
      if (c.blocked) defer(g, c, s);
      else if (!c.missed.has(s)) queue(c, text, s);
      // else: a fresh snapshot replaces this delta for c
    }
  }
  g.dirty.length = 0;
}

/** Sends every visited socket its queued messages (frames within the budget). */
function sendQueued(g: GatewayState): void {
  for (const c of g.visited) {
    if (c.out.length > 0) {
      const parts = c.out;
      const of = c.outStreams;
      c.out = [];
      c.outStreams = [];
      sendStreamParts(g, c, parts, of);
    }
  }
  g.visited.length = 0;
}

/** GatewayCore.flush: one flush (see the module docstring); also closes sockets slow too long. */
export function flush(g: GatewayState): void {
  g.flushNo++;
  flushStreams(g);
  for (const c of g.resyncing) {
    if (c.mark !== g.flushNo) visit(g, c);
    if (!c.blocked) resync(g, c);
  }
  sendQueued(g);
  for (const c of g.supportMissed) {
    if (c.closed) g.supportMissed.delete(c);
    else if (sendable(g, c)) {
      c.ws.send(g.support!.resyncText);
      g.supportMissed.delete(c);
    }
  }
  checkSlow(g);
}

/** GatewayCore.heartbeat: one heartbeat to every socket within its budget. */
export function heartbeat(g: GatewayState): void {
  const text = heartbeatText(g);
  for (const c of g.conns) sendReply(g, c, text);
}
