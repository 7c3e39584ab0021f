/**
 * Live quotes and five-level depth as entity collections keyed by symbol. Stream batches are
 * low-priority actions (`prepareAutoBatched`): the store notifies subscribers once per animation
 * frame however many batches arrived (src/app/store.ts, `autoBatchEnhancer({type: 'raf'})`).
 * Whole entities are replaced with `setMany`. Trades stay outside Redux (src/live/hooks.ts
 * `useTrades`), candles go to the chart imperatively.
 */
import {
  createAction,
  createEntityAdapter,
  createSlice,
  prepareAutoBatched,
  type PayloadAction,
  type UnknownAction,
} from '@reduxjs/toolkit';
import type { ClockState, Depth, Quote } from '../../contract/market';
import type { ConnState } from '../../workers/protocol';

export const depthAdapter = createEntityAdapter<Depth, string>({ selectId: (d) => d.symbol });

/**
 * Drops values older than what the store holds (a REST page fetched before a stream update must
 * not roll the price back). A different replay day always wins.
 */
function fresher<T extends { symbol: string; ts: number }>(
  current: Record<string, T | undefined>,
  incoming: readonly T[],
  sameDay: (a: T, b: T) => boolean = () => true,
): T[] {
  const out: T[] = [];
  for (const v of incoming) {
    const cur = current[v.symbol];
    if (cur && sameDay(cur, v) && cur.ts > v.ts) continue;
    out.push(v);
  }
  return out;
}

const sameReplayDay = (a: Quote, b: Quote) => a.replayDate === b.replayDate;

/** One worker batch of quotes: `receivedAt[i]` is when `items[i]` reached the worker (epoch ms). */
export interface QuoteBatchPayload {
  items: Quote[];
  receivedAt: number[];
}

/**
 * Live quotes by symbol, in arrays addressed by a slot per symbol. A batch replaces hundreds of
 * quotes in a collection of thousands, and it must not mutate the previous state: copying an
 * array of 2,000 references is a memcpy (~0.01 ms), where copying a Map of 2,000 entries rehashes
 * every key (~0.1 ms; measured in Node, 4× that on a throttled phone, and two Maps per batch cost
 * 7 % of the main thread at 20,000 quotes/s in `npm run bench:stream`). Never mutated: each batch
 * makes new arrays; `slots` is shared until a new symbol arrives (then copied), and never shrinks.
 * Read it through `quoteOf`, `quoteReceivedAt` and `quoteCount`.
 */
export interface QuotesState {
  /** Symbol → index into `quotes` and `receivedAt`. */
  slots: ReadonlyMap<string, number>;
  quotes: readonly Quote[];
  /**
   * Worker wall clock (epoch ms) of each symbol's last streamed quote (NaN: none yet). Not in
   * the entity, so a row keeps its quote's identity when only this changes.
   */
  receivedAt: readonly number[];
}

const initialQuotes: QuotesState = { slots: new Map(), quotes: [], receivedAt: [] };

/** The symbol's quote, if any. */
export function quoteOf(state: QuotesState, symbol: string): Quote | undefined {
  const i = state.slots.get(symbol);
  return i === undefined ? undefined : state.quotes[i];
}

/** Worker wall clock (epoch ms) of the symbol's last streamed quote, if any. */
export function quoteReceivedAt(state: QuotesState, symbol: string): number | undefined {
  const i = state.slots.get(symbol);
  const t = i === undefined ? undefined : state.receivedAt[i];
  return t === undefined || Number.isNaN(t) ? undefined : t;
}

/** How many symbols have a quote. */
export function quoteCount(state: QuotesState): number {
  return state.slots.size;
}

/** REST snapshots (list pages, detail): seeds rows before the stream. */
export const quotesReceived = createAction('quotes/received', prepareAutoBatched<Quote[]>());
/** One worker batch (one dispatch per batch). */
export const quoteBatchReceived = createAction(
  'quotes/batchReceived',
  prepareAutoBatched<QuoteBatchPayload>(),
);

/**
 * Applies quotes to the collection without Immer: a draft would proxy every entity read and walk
 * and freeze the collection on every batch (57 % of the main thread at 20,000 quotes/s in
 * `npm run bench:stream`). Here a batch costs a copy of each array. Entities are replaced whole,
 * so a row's selector sees a new object only for its own symbol.
 */
function applyQuotes(
  state: QuotesState,
  items: readonly Quote[],
  receivedAt?: readonly number[],
): QuotesState {
  let slots: Map<string, number> | null = null;
  let quotes: Quote[] | null = null;
  let received: number[] | null = null;
  for (let i = 0; i < items.length; i++) {
    const q = items[i]!;
    let slot = (slots ?? state.slots).get(q.symbol);
    if (slot === undefined) {
      slot = (slots ?? state.slots).size;
      (slots ??= new Map(state.slots)).set(q.symbol, slot);
      (received ??= state.receivedAt.slice()).push(Number.NaN);
    }
    const t = receivedAt?.[i];
    if (t !== undefined) (received ??= state.receivedAt.slice())[slot] = t;
    const cur = (quotes ?? state.quotes)[slot];
    if (cur && sameReplayDay(cur, q) && cur.ts > q.ts) continue;
    (quotes ??= state.quotes.slice())[slot] = q;
  }
  if (!slots && !quotes && !received) return state;
  return {
    slots: slots ?? state.slots,
    quotes: quotes ?? state.quotes,
    receivedAt: received ?? state.receivedAt,
  };
}

/** The quotes collection's reducer (hand-written for speed; see applyQuotes). */
export function quotesReducer(state: QuotesState = initialQuotes, action: UnknownAction): QuotesState {
  if (quoteBatchReceived.match(action))
    return applyQuotes(state, action.payload.items, action.payload.receivedAt);
  if (quotesReceived.match(action)) return applyQuotes(state, action.payload);
  return state;
}

export const depthSlice = createSlice({
  name: 'depth',
  initialState: depthAdapter.getInitialState(),
  reducers: {
    depthReceived: {
      reducer(state, action: PayloadAction<Depth[]>) {
        const items = fresher(state.entities, action.payload);
        if (items.length) depthAdapter.setMany(state, items);
      },
      prepare: prepareAutoBatched<Depth[]>(),
    },
  },
});

export interface MarketStatusState {
  conn: ConnState;
  clock: ClockState | null;
  /** Reconnect attempts since the socket was last open. */
  attempt: number;
  /** Worker wall clock (epoch ms) of the last market data, null if none yet (workers/protocol.ts). */
  lastDataAt: number | null;
}

// 'connecting' before the worker's first status: every screen that shows the badge starts the
// market bridge, so the first frame (and index.html's prerendered copy) never says "not connected".
const initialStatus: MarketStatusState = { conn: 'connecting', clock: null, attempt: 0, lastDataAt: null };

/** Connection state and market clock (connection changes are notified at once). */
export const marketStatusSlice = createSlice({
  name: 'marketStatus',
  initialState: initialStatus,
  reducers: {
    connChanged(
      state,
      action: PayloadAction<{
        conn: ConnState;
        attempt: number;
        clock: ClockState | null;
        lastDataAt: number | null;
      }>,
    ) {
      state.conn = action.payload.conn;
      state.attempt = action.payload.attempt;
      state.lastDataAt = action.payload.lastDataAt;
      if (action.payload.clock) state.clock = action.payload.clock;
    },
    /** The clock a REST answer carried: low priority, notified with the frame's quote batches. */
    clockSeen: {
      reducer(state, action: PayloadAction<ClockState>) {
        state.clock = action.payload;
      },
      prepare: prepareAutoBatched<ClockState>(),
    },
  },
});

export const { depthReceived } = depthSlice.actions;
export const { connChanged, clockSeen } = marketStatusSlice.actions;

export const marketReducers = {
  quotes: quotesReducer,
  depth: depthSlice.reducer,
  marketStatus: marketStatusSlice.reducer,
};

export interface MarketRootState {
  quotes: QuotesState;
  depth: ReturnType<typeof depthSlice.reducer>;
  marketStatus: MarketStatusState;
}
