/**
 * Live quotes and five-level depth as entity collections keyed by symbol. Stream batches are
 * low-priority actions (`prepareAutoBatched`): the store notifies subscribers once per animation
 * frame however many batches arrived. Whole entities are replaced with `setMany`.
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

export const quotesSlice = createSlice({
  name: 'quotes',
  initialState: quotesAdapter.getInitialState(),
  reducers: {
    quotesReceived: {
      reducer(state, action: PayloadAction<Quote[]>) {
        const items = fresher(state.entities, action.payload, (a, b) => a.replayDate === b.replayDate);
        if (items.length) quotesAdapter.setMany(state, items);
      },
      prepare: prepareAutoBatched<Quote[]>(),
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
  attempt: number;
}

const initialStatus: MarketStatusState = { conn: 'stopped', clock: null, attempt: 0 };

/** Connection state and market clock (rare events: notified at once). */
export const marketStatusSlice = createSlice({
  name: 'marketStatus',
  initialState: initialStatus,
  reducers: {
    connChanged(
      state,
      action: PayloadAction<{ conn: ConnState; attempt: number; clock: ClockState | null }>,
    ) {
      state.conn = action.payload.conn;
      state.attempt = action.payload.attempt;
      if (action.payload.clock) state.clock = action.payload.clock;
    },
    clockSeen(state, action: PayloadAction<ClockState>) {
      state.clock = action.payload;
    },
  },
});

export const { quotesReceived } = quotesSlice.actions;
export const { depthReceived } = depthSlice.actions;
export const { connChanged, clockSeen } = marketStatusSlice.actions;

export const marketReducers = {
  quotes: quotesSlice.reducer,
  depth: depthSlice.reducer,
  marketStatus: marketStatusSlice.reducer,
};

export interface MarketRootState {
  quotes: ReturnType<typeof quotesSlice.reducer>;
  depth: ReturnType<typeof depthSlice.reducer>;
  marketStatus: MarketStatusState;
}
