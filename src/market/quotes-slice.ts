/**
 * Live quotes and five-level depth as entity collections keyed by symbol. Stream batches are
 * low-priority actions (`prepareAutoBatched`): the store notifies subscribers once per animation
 * frame however many batches arrived (src/app/store.ts, `autoBatchEnhancer({type: 'raf'})`).
 * Whole entities are replaced with `setMany`. Trades stay outside Redux (src/market/hooks.ts
 * `useTrades`), candles go to the chart imperatively.
 */
import { createEntityAdapter, createSlice, prepareAutoBatched, type PayloadAction } from '@reduxjs/toolkit';
import type { ClockState, Depth, Quote } from '../../contract/market';
import type { ConnState } from '../../workers/protocol';

export const quotesAdapter = createEntityAdapter<Quote, string>({ selectId: (q) => q.symbol });
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

export interface QuotesState extends ReturnType<typeof quotesAdapter.getInitialState> {
  /** Symbol → worker wall clock (epoch ms) of its last streamed quote. Not in the entity, so rows keep their identity. */
  receivedAt: Record<string, number>;
}

const initialQuotes: QuotesState = quotesAdapter.getInitialState({ receivedAt: {} });

export const quotesSlice = createSlice({
  name: 'quotes',
  initialState: initialQuotes,
  reducers: {
    /** REST snapshots (list pages, detail): seeds rows before the stream. */
    quotesReceived: {
      reducer(state, action: PayloadAction<Quote[]>) {
        const items = fresher(state.entities, action.payload, sameReplayDay);
        if (items.length) quotesAdapter.setMany(state, items);
      },
      prepare: prepareAutoBatched<Quote[]>(),
    },
    /** One worker batch (one dispatch per batch). */
    quoteBatchReceived: {
      reducer(state, action: PayloadAction<QuoteBatchPayload>) {
        const { items, receivedAt } = action.payload;
        const fresh = fresher(state.entities, items, sameReplayDay);
        if (fresh.length) quotesAdapter.setMany(state, fresh);
        for (let i = 0; i < items.length; i++) {
          const t = receivedAt[i];
          if (t !== undefined) state.receivedAt[items[i]!.symbol] = t;
        }
      },
      prepare: prepareAutoBatched<QuoteBatchPayload>(),
    },
  },
});

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

const initialStatus: MarketStatusState = { conn: 'stopped', clock: null, attempt: 0, lastDataAt: null };

/** Connection state and market clock (rare events: notified at once). */
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
    clockSeen(state, action: PayloadAction<ClockState>) {
      state.clock = action.payload;
    },
  },
});

export const { quotesReceived, quoteBatchReceived } = quotesSlice.actions;
export const { depthReceived } = depthSlice.actions;
export const { connChanged, clockSeen } = marketStatusSlice.actions;

export const marketReducers = {
  quotes: quotesSlice.reducer,
  depth: depthSlice.reducer,
  marketStatus: marketStatusSlice.reducer,
};

export interface MarketRootState {
  quotes: QuotesState;
  depth: ReturnType<typeof depthSlice.reducer>;
  marketStatus: MarketStatusState;
}
