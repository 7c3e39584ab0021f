/**
 * What one client address may hold on the `/ws` gateway, on top of the per-connection limits of
 * contract/realtime.ts: anonymous sockets cost the server memory and event-loop time, so one
 * address opening hundreds of them, each subscribing every stream it may, must not slow the API
 * down for everybody else.
 *
 * Costs: every stream a connection holds has a cost (WS_STREAM_COST: what its snapshot and its
 * flushes cost the server, relative to a quote); a connection holds at most
 * `costPerConnection`, all connections of an address together at most `costPerAddress`.
 * Snapshots (every `sub`, including a `sub` of a stream already held, which answers a fresh
 * snapshot) are paid from a bucket per address of `snapshotCostPerS` a second (bursts of
 * `snapshotBurst`). An address holds at most `connectionsPerAddress` sockets.
 *
 * Over a limit the client is told, never left guessing: a connection beyond the address's limit
 * gets an `error` `tooManyConnections` and is closed with WS_CLOSE_TOO_MANY_CONNECTIONS; a
 * stream beyond a cost limit is refused with `error` `tooManySubscriptions`; a snapshot beyond the
 * bucket is refused (not subscribed) with `error` `tooFrequent`.
 *
 * Environment (README "Configuration"): WS_MAX_CONNECTIONS_PER_ADDRESS (32),
 * WS_MAX_COST_PER_CONNECTION (4000), WS_MAX_COST_PER_ADDRESS (12000), WS_SNAPSHOT_COST_PER_S
 * (5000), WS_SNAPSHOT_BURST (20000). Defaults: a phone watches a few dozen quotes and one
 * detail (cost < 200); the stream benchmark watches 2,000 quotes on two connections from one
 * address (cost 4,000); a household or an office behind one address stays well within them.
 */
import type { CandlePeriod } from '../../contract/market';
import type { Channel } from '../../contract/realtime';

/** Per-address limits of the gateway (see the module docstring). */
export interface WsLimits {
  connectionsPerAddress: number;
  costPerConnection: number;
  costPerAddress: number;
  snapshotCostPerS: number;
  snapshotBurst: number;
}

export const DEFAULT_WS_LIMITS: Readonly<WsLimits> = {
  connectionsPerAddress: 32,
  costPerConnection: 4_000,
  costPerAddress: 12_000,
  snapshotCostPerS: 5_000,
  snapshotBurst: 20_000,
};

/**
 * Cost of holding one stream (and of one snapshot of it), relative to a quote (≈ 300 bytes of
 * snapshot, one small delta per flush): depth a five-level book, trades 50 prints, intraday
 * candles 300 bars from memory, daily candles (1d/1M/1y) 300 bars from the instrument's history.
 */
export function streamCost(channel: Channel, period: CandlePeriod | undefined): number {
  if (channel === 'quotes') return 1;
  if (channel === 'depth') return 2;
  if (channel === 'trades') return 3;
  return period === '1d' || period === '1M' || period === '1y' ? 20 : 10;
}

/** WS_* limits from the environment (positive integers; unset: the default). */
export function loadWsLimits(env: NodeJS.ProcessEnv): WsLimits {
  const int = (name: string, dflt: number): number => {
    const v = env[name];
    if (v === undefined || v === '') return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got ${v}`);
    return n;
  };
  return {
    connectionsPerAddress: int('WS_MAX_CONNECTIONS_PER_ADDRESS', DEFAULT_WS_LIMITS.connectionsPerAddress),
    costPerConnection: int('WS_MAX_COST_PER_CONNECTION', DEFAULT_WS_LIMITS.costPerConnection),
    costPerAddress: int('WS_MAX_COST_PER_ADDRESS', DEFAULT_WS_LIMITS.costPerAddress),
    snapshotCostPerS: int('WS_SNAPSHOT_COST_PER_S', DEFAULT_WS_LIMITS.snapshotCostPerS),
    snapshotBurst: int('WS_SNAPSHOT_BURST', DEFAULT_WS_LIMITS.snapshotBurst),
  };
}

/** One address's share of the gateway: its sockets, the cost they hold, its snapshot bucket. */
export interface AddressShare {
  connections: number;
  cost: number;
  /** Takes `cost` from the snapshot bucket at wall time `nowMs`; false (nothing taken) when short. */
  takeSnapshot(nowMs: number, cost: number): boolean;
  /** True when the bucket has refilled to its burst by `nowMs` (forgetting it then changes nothing). */
  full(nowMs: number): boolean;
}

/**
 * The addresses with an open socket. An address whose last socket closed is forgotten once its
 * snapshot bucket has refilled (checked at most once a second), so closing every socket and
 * reconnecting does not refill it sooner.
 */
export interface AddressBook {
  /** The address's share with one more connection, or null when it holds the maximum already. */
  admit(address: string): AddressShare | null;
  /** One connection of the address closed (its streams already released). */
  release(address: string): void;
  /** Addresses known (with sockets, or without and not forgotten yet). */
  size(): number;
}

/** Creates the book for `limits`; `now` is the wall clock in ms. */
export function createAddressBook(limits: WsLimits, now: () => number = Date.now): AddressBook {
  const shares = new Map<string, AddressShare>();
  /** Addresses without a socket, kept until their bucket is full. */
  const idle = new Set<string>();
  let sweptAt = -Infinity;
  function sweep(): void {
    const t = now();
    if (t - sweptAt < 1_000) return;
    sweptAt = t;
    for (const a of idle) {
      if (shares.get(a)?.full(t) === false) continue;
      idle.delete(a);
      shares.delete(a);
    }
  }
  function newShare(): AddressShare {
    let tokens = limits.snapshotBurst;
    let at: number | null = null;
    const refill = (nowMs: number) => {
      if (at !== null) {
        tokens = Math.min(limits.snapshotBurst, tokens + ((nowMs - at) * limits.snapshotCostPerS) / 1_000);
      }
      at = nowMs;
    };
    return {
      connections: 0,
      cost: 0,
      takeSnapshot(nowMs, cost) {
        refill(nowMs);
        if (tokens < cost) return false;
        tokens -= cost;
        return true;
      },
      full(nowMs) {
        refill(nowMs);
        return tokens >= limits.snapshotBurst;
      },
    };
  }
  return {
    admit(address) {
      sweep();
      idle.delete(address);
      let s = shares.get(address);
      if (!s) shares.set(address, (s = newShare()));
      if (s.connections >= limits.connectionsPerAddress) return null;
      s.connections++;
      return s;
    },
    release(address) {
      const s = shares.get(address);
      if (!s) return;
      s.connections--;
      if (s.connections <= 0) idle.add(address);
    },
    size: () => shares.size,
  };
}
