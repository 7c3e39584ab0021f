/**
 * Sockets authenticated by a session, by session and by user, so that ending a session ends its
 * sockets too: a live socket is authenticated once (the support channel's `auth`), and without
 * this it would keep receiving after logout, a password change or the account being disabled,
 * while REST already answers 401.
 *
 * One registry per app (buildApp's Services `sessionSockets`: the support hub tracks into it and
 * the handlers of the app's requests revoke from it; user ids are only unique within one
 * database). Every path that ends sessions calls one method after its commit:
 * - `revokeSession(tokenHash)`: logout (sessions.ts SessionAuth.end);
 * - `revokeUser(userId, keepTokenHash?)`: a password change (every session but the current
 *   one), a password reset, an operator disabling or barring the user (every session).
 * Both are synchronous and take plain data, so a later message bus between processes can call
 * them as they are. Session expiry and changes made to the database outside the app are caught by
 * the support hub's periodic re-check (server/modules/support/hub.ts).
 *
 * A revoked socket is closed with WS_CLOSE_SESSION_ENDED ('sessionEnded'; contract/realtime.ts).
 */
/** A socket as the registry sees it: it can be ended. */
export interface SessionSocket {
  /** Closes the socket because its session ended (WS_CLOSE_SESSION_ENDED); untracks it. */
  end(): void;
}

interface Entry {
  tokenHash: string;
  userId: number;
  socket: SessionSocket;
}

/** The sockets of one database's sessions. */
export interface SessionSockets {
  /** Tracks a socket authenticated by the session `tokenHash` of `userId`; returns its untrack. */
  track(tokenHash: string, userId: number, socket: SessionSocket): () => void;
  /** Ends every socket of the session; returns how many were ended. */
  revokeSession(tokenHash: string): number;
  /** Ends every socket of the user except those of `keepTokenHash`; returns how many were ended. */
  revokeUser(userId: number, keepTokenHash?: string): number;
  /** Tracked sockets (tests, metrics). */
  size(): number;
}

/** A fresh, empty registry. */
export function createSessionSockets(): SessionSockets {
  const bySession = new Map<string, Set<Entry>>();
  const byUser = new Map<number, Set<Entry>>();

  function add<K>(map: Map<K, Set<Entry>>, key: K, e: Entry): void {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(e);
  }
  function remove<K>(map: Map<K, Set<Entry>>, key: K, e: Entry): void {
    const set = map.get(key);
    set?.delete(e);
    if (set?.size === 0) map.delete(key);
  }
  function untrack(e: Entry): void {
    remove(bySession, e.tokenHash, e);
    remove(byUser, e.userId, e);
  }
  /** Ends the entries (a copy: ending untracks them meanwhile). */
  function end(entries: Entry[]): number {
    for (const e of entries) {
      untrack(e);
      e.socket.end();
    }
    return entries.length;
  }

  return {
    track(tokenHash, userId, socket) {
      const e: Entry = { tokenHash, userId, socket };
      add(bySession, tokenHash, e);
      add(byUser, userId, e);
      return () => untrack(e);
    },
    revokeSession: (tokenHash) => end([...(bySession.get(tokenHash) ?? [])]),
    revokeUser: (userId, keep) => end([...(byUser.get(userId) ?? [])].filter((e) => e.tokenHash !== keep)),
    size: () => {
      let n = 0;
      for (const set of bySession.values()) n += set.size;
      return n;
    },
  };
}
