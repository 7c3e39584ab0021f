/**
 * Live delivery of support conversations over the `/ws` gateway (contract/support.ts): the
 * gateway hands the support ops of a socket (`auth`, `say`) to the hub, and the hub pushes
 * events to the sockets that may see them: a member's own sockets for its conversation, every
 * operator socket for all. Nothing else routes a conversation's events, so a member never
 * receives another member's.
 *
 * Per connection: one identity (a later `auth` replaces it); `say` at most SUPPORT_SAY_PER_S a
 * second (bursts of SUPPORT_SAY_BURST; beyond: `error` `tooFrequent`), on top of the gateway's own
 * message limit; the session is checked again on every `say` (a logged-out token stops sending).
 * Outbound, events go through the gateway's budget (`SupportPeer.deliver`): an event that does not
 * fit is not queued; the gateway sends `resyncText` once the socket drains, and the client reloads
 * the history over REST.
 *
 * Sessions: an authenticated socket is tracked by its session (server/modules/auth/
 * session-sockets.ts), so logout, a password change, a password reset or an operator disabling
 * or barring the user closes it at once (WS_CLOSE_SESSION_ENDED). Every SUPPORT_SESSION_RECHECK_MS
 * the hub checks every authenticated socket's session again and closes those that ended otherwise
 * (expiry, a change made to the database outside the app).
 */
import { forbiddenTextPath } from '../../../contract/common';
import type { SupportEvent, SupportMessage } from '../../../contract/support';
import type { Db } from '../../db/client';
import { createRateLimiter, type RateLimiter } from '../common/rate-limiter';
import type { SessionSockets } from '../auth/session-sockets';
import { hashToken, type SessionAuth } from '../auth/sessions';
import type { AuthUser } from '../common/context';
import { AppError } from '../common/errors';
import { postMessage, type ConversationView } from './service';

/** Messages a socket may send a second, and in a burst (a person typing, or a few images). */
export const SUPPORT_SAY_PER_S = 2;
export const SUPPORT_SAY_BURST = 10;
/** Wall ms between two checks of every authenticated socket's session (expiry, outside changes). */
export const SUPPORT_SESSION_RECHECK_MS = 30_000;

/** One socket as the hub sees it (the gateway's connection). */
export interface SupportPeer {
  /** An event, within the socket's outbound budget; dropped when over it, then a resync follows. */
  deliver(text: string): void;
  /** A reply (`authed`, `error`), within the budget, else dropped. */
  reply(text: string): void;
  /** Closes the socket: its session ended (WS_CLOSE_SESSION_ENDED); the hub forgets it first. */
  end(): void;
}

/** The support ops of contract/support.ts supportClientMessages. */
export type SupportOp =
  { op: 'auth'; token: string } | { op: 'say'; conversationId?: number; text?: string; uploadId?: string };

export interface SupportHub {
  /** Handles one support op of a socket (resolves when answered). */
  handle(peer: SupportPeer, msg: SupportOp): Promise<void>;
  /** Forgets a closed socket. */
  close(peer: SupportPeer): void;
  /** Sends an event to the conversation's member and to every operator socket. */
  publish(view: ConversationView, message?: SupportMessage): void;
  /** What a socket gets after it missed events (contract/support.ts `resync`). */
  readonly resyncText: string;
  /** Authenticated sockets (tests, metrics). */
  peers(): number;
  /** Checks every authenticated socket's session now; closes those that ended (tests call it). */
  recheck(): Promise<number>;
  /** Starts the periodic re-check (every SUPPORT_SESSION_RECHECK_MS). */
  start(): void;
  /** Stops the periodic re-check. */
  stop(): void;
}

interface PeerState {
  user: AuthUser;
  token: string;
  limiter: RateLimiter;
  /** Removes the socket from the session registry. */
  untrack: () => void;
}

const errorText = (msg: string) => JSON.stringify({ type: 'error', msg });

/**
 * Creates the hub on the database (the gateway calls it; REST handlers publish through it as
 * ctx.services.supportHub). `sessions` authenticates the sockets; `sockets` is the app's registry
 * they are tracked in. Inert until start() (the periodic re-check).
 */
export function createSupportHub(opts: {
  db: Db;
  sessions: SessionAuth;
  sockets: SessionSockets;
  log?: (msg: string, err: unknown) => void;
}): SupportHub {
  const { db, sockets: registry } = opts;
  const log = opts.log ?? (() => undefined);
  const authenticate = opts.sessions.authenticate;
  const states = new Map<SupportPeer, PeerState>();
  const members = new Map<number, Set<SupportPeer>>();
  const operators = new Set<SupportPeer>();

  function forget(peer: SupportPeer): void {
    const s = states.get(peer);
    if (!s) return;
    states.delete(peer);
    s.untrack();
    operators.delete(peer);
    const set = members.get(s.user.id);
    set?.delete(peer);
    if (set?.size === 0) members.delete(s.user.id);
  }

  async function auth(peer: SupportPeer, token: string): Promise<void> {
    const found = await authenticate(db, token);
    forget(peer);
    if (found === null || found === 'expired') {
      peer.reply(errorText(found === 'expired' ? 'sessionExpired' : 'notLoggedIn'));
      return;
    }
    states.set(peer, {
      user: found,
      token,
      limiter: createRateLimiter({
        perSecond: SUPPORT_SAY_PER_S,
        burst: SUPPORT_SAY_BURST,
        abuseRefusals: Number.MAX_SAFE_INTEGER,
        abuseWindowMs: 1,
      }),
      untrack: registry.track(hashToken(token), found.id, {
        end() {
          forget(peer);
          peer.end();
        },
      }),
    });
    if (found.role === 'member') {
      let set = members.get(found.id);
      if (!set) members.set(found.id, (set = new Set()));
      set.add(peer);
    } else operators.add(peer);
    peer.reply(JSON.stringify({ type: 'authed', role: found.role === 'member' ? 'member' : 'operator' }));
  }

  async function say(peer: SupportPeer, msg: Extract<SupportOp, { op: 'say' }>): Promise<void> {
    const s = states.get(peer);
    if (!s) return peer.reply(errorText('notLoggedIn'));
    if (s.limiter.take(Date.now()) !== 'ok') return peer.reply(errorText('tooFrequent'));
    const user = await authenticate(db, s.token);
    if (user === null || user === 'expired') {
      forget(peer);
      peer.reply(errorText(user === 'expired' ? 'sessionExpired' : 'notLoggedIn'));
      return peer.end();
    }
    if (forbiddenTextPath(msg) !== null) return peer.reply(errorText('parameterError'));
    try {
      const posted = await postMessage(db, user, msg);
      hub.publish(posted, posted.message);
    } catch (err) {
      if (err instanceof AppError) return peer.reply(errorText(err.key));
      log('support: message failed', err);
      peer.reply(errorText('systemBusy'));
    }
  }

  const hub: SupportHub = {
    handle(peer, msg) {
      return msg.op === 'auth' ? auth(peer, msg.token) : say(peer, msg);
    },
    close: forget,
    publish(view, message) {
      const event: SupportEvent = {
        type: 'support',
        event: message ? 'message' : 'conversation',
        conversation: view.conversation,
        ...(message ? { message } : {}),
      };
      const text = JSON.stringify(event);
      for (const p of members.get(view.memberId) ?? []) p.deliver(text);
      for (const p of operators) p.deliver(text);
    },
    resyncText: JSON.stringify({ type: 'support', event: 'resync' } satisfies SupportEvent),
    peers: () => states.size,
    recheck,
    start() {
      if (timer) return;
      timer = setInterval(() => void recheck(), SUPPORT_SESSION_RECHECK_MS);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  /** Re-authenticates every socket's session, one at a time; ends those that ended. */
  async function recheck(): Promise<number> {
    let ended = 0;
    for (const [peer, s] of [...states]) {
      let user: Awaited<ReturnType<typeof authenticate>>;
      try {
        user = await authenticate(db, s.token);
      } catch (err) {
        log('support: session re-check failed', err);
        continue;
      }
      if ((user === null || user === 'expired') && states.get(peer) === s) {
        forget(peer);
        peer.end();
        ended++;
      }
    }
    return ended;
  }
  return hub;
}
