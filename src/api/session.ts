/**
 * The session (product-spec §4 "Session"): token, account and is_admin, kept in the store and in
 * local storage. Lives in the shared api layer because the base query reads it for headers.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Role, SessionRes } from '../../contract/auth';

export interface SessionState {
  token: string | null;
  account: string | null;
  isAdmin: boolean;
  role: Role | null;
}

export const initialSession: SessionState = { token: null, account: null, isAdmin: false, role: null };

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSession,
  reducers: {
    loggedIn(_state, action: PayloadAction<SessionRes>) {
      return {
        token: action.payload.token,
        account: action.payload.account,
        isAdmin: action.payload.isAdmin,
        role: action.payload.role,
      };
    },
    loggedOut() {
      return initialSession;
    },
  },
});

export const { loggedIn, loggedOut } = sessionSlice.actions;

export interface SessionRootState {
  session: SessionState;
}

export const selectSession = (s: SessionRootState): SessionState => s.session;
export const selectLoggedIn = (s: SessionRootState): boolean => s.session.token !== null;
