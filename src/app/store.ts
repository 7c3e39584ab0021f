/**
 * The Redux store: RTK Query cache, session, live quotes/depth and connection status.
 * Quote batches are auto-batched per animation frame and wait while the member is tapping or typing
 * (`autoBatchEnhancer` with src/live/input-priority.ts's `queueAfterInput`); account and order
 * actions notify at once.
 */
import { autoBatchEnhancer, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { api } from '../api/api';
import { loggedIn, loggedOut, sessionSlice, type SessionState } from '../api/session';
import { queueAfterInput, watchInput } from '../live/input-priority';
import { marketReducers } from '../live/quotes-slice';
import { clearSession, readSession, writeSession } from '../lib/storage';

/** A new store; `storagePrefix` keeps the console's session apart from a member's (admin_). */
export function createAppStore(opts: { storagePrefix?: string } = {}) {
  const prefix = opts.storagePrefix ?? '';
  const stored = readSession(prefix);
  const session: SessionState = { ...stored, role: null };

  // Persist the session whenever it changes (spec §4: saved to local storage and to the store).
  const persist = createListenerMiddleware();
  persist.startListening({
    matcher: isAnyOf(loggedIn, loggedOut),
    effect: (action, listenerApi) => {
      const s = (listenerApi.getState() as { session: SessionState }).session;
      if (loggedOut.match(action)) {
        clearSession(prefix);
        listenerApi.dispatch(api.util.resetApiState());
      } else writeSession({ token: s.token, account: s.account, isAdmin: s.isAdmin }, prefix);
    },
  });

  if (typeof document !== 'undefined') watchInput(document);

  return configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
      session: sessionSlice.reducer,
      ...marketReducers,
    },
    preloadedState: { session },
    middleware: (getDefault) =>
      getDefault({
        // Stream state is large and replaced wholesale; skip the dev-only deep checks there.
        immutableCheck: { ignoredPaths: ['quotes', 'depth'] },
        serializableCheck: { ignoredPaths: ['quotes', 'depth'] },
      })
        .prepend(persist.middleware)
        .concat(api.middleware),
    enhancers: (getDefault) =>
      getDefault({ autoBatch: false }).concat(
        autoBatchEnhancer({ type: 'callback', queueNotification: queueAfterInput }),
      ),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
