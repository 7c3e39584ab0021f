/**
 * Revoked sessions lose their sockets, on PGlite and PostgreSQL: a support socket authenticated by
 * a session is told `error` `sessionEnded` and closed (WS_CLOSE_SESSION_ENDED, 'sessionEnded') as
 * soon as that session ends, and no support event reaches it afterwards (REST answers 401):
 * - the member logs out;
 * - the member changes the login password on another device (the socket of the session that made
 *   the change stays open and keeps receiving);
 * - an operator disables the account;
 * - an operator logs out: the operator's socket, which saw every member's messages, sees none;
 * - a session that expires (found by the hub's periodic re-check).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE_SESSION_ENDED } from '../../contract/realtime';
import { sessions } from '../../server/db/schema';
import { hashToken } from '../../server/modules/auth/sessions';
import { OPERATOR, startHarness, type Harness } from '../integration/harness';

let h: Harness;
let url: string;
const peers: Peer[] = [];

beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address();
  url = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/ws`;
});
afterAll(async () => {
  for (const p of peers) p.ws.terminate();
  await h?.close();
});

type Msg = Record<string, any>;

/** A socket authenticated on the support channel, recording what it receives and how it closed. */
class Peer {
  ws: WebSocket;
  got: Array<{ at: number; m: Msg }> = [];
  closed: { code: number; reason: string; at: number } | null = null;
  constructor() {
    this.ws = new WebSocket(url);
    peers.push(this);
    this.ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString());
      for (const m of Array.isArray(frame) ? frame : [frame])
        if (m.type !== 'hb') this.got.push({ at: Date.now(), m });
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString(), at: Date.now() };
    });
    this.ws.on('error', () => undefined);
  }
  static async authed(token: string): Promise<Peer> {
    const p = new Peer();
    await new Promise<void>((resolve, reject) => {
      p.ws.once('open', () => resolve());
      p.ws.once('error', reject);
    });
    p.ws.send(JSON.stringify({ op: 'auth', token }));
    expect(await waitFor(() => p.got.some((x) => x.m.type === 'authed'), 5_000)).toBe(true);
    return p;
  }
  /** Support events carrying a message with this text. */
  saw(text: string): boolean {
    return this.got.some((x) => x.m.type === 'support' && x.m.message?.text === text);
  }
}

const waitFor = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return cond();
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** A member's message over REST; the conversation id. */
const memberSays = async (token: string, text: string): Promise<number> =>
  (await ok('support/send', { text }, token)).conversation.id;

/** The operator's reply to a conversation over REST. */
const operatorSays = (op: string, conversationId: number, text: string) =>
  ok('admin/supportReply', { conversationId, text }, op);

/** A fresh operator session (h.operatorToken() keeps one for the whole file). */
const operatorLogin = async (): Promise<string> => (await ok('admin/login', OPERATOR, '')).token;

const login = async (account: string, password = 'password123'): Promise<string> =>
  (await ok('user/login', { account, password }, '')).token;

/** The socket was closed for its session, and no support event reached it afterwards. */
function expectEnded(p: Peer, text: string): void {
  expect(p.closed).toMatchObject({ code: WS_CLOSE_SESSION_ENDED, reason: 'sessionEnded' });
  expect(p.got.some((x) => x.m.type === 'error' && x.m.msg === 'sessionEnded')).toBe(true);
  expect(p.saw(text)).toBe(false);
}

describe('a socket whose session ends is closed', () => {
  let op: string;
  beforeAll(async () => {
    op = await h.operatorToken();
  });

  it('member logout closes the support socket; the operator reply after it is not delivered', async () => {
    const token = await h.register('0951000001');
    const conv = await memberSays(token, 'before logout');
    const p = await Peer.authed(token);
    await operatorSays(op, conv, 'reply one');
    expect(await waitFor(() => p.saw('reply one'), 5_000)).toBe(true);

    await ok('user/logout', {}, token);
    expect((await h.call('support/history', {}, token)).http).toBe(401);
    expect(await waitFor(() => p.closed !== null, 2_000)).toBe(true);
    await operatorSays(op, conv, 'after logout');
    await sleep(300);
    expectEnded(p, 'after logout');
  });

  it("a password change on another device closes the other session's socket, not its own", async () => {
    await h.register('0951000002');
    const phone = await login('0951000002');
    const laptop = await login('0951000002');
    const conv = await memberSays(phone, 'two devices');
    const onPhone = await Peer.authed(phone);
    const onLaptop = await Peer.authed(laptop);

    await ok(
      'user/loginPassword',
      { oldPassword: 'password123', password: 'newpass456', confirmPassword: 'newpass456' },
      laptop,
    );
    expect((await h.call('support/history', {}, phone)).http).toBe(401);
    expect(await waitFor(() => onPhone.closed !== null, 2_000)).toBe(true);
    await operatorSays(op, conv, 'after password change');
    expect(await waitFor(() => onLaptop.saw('after password change'), 5_000)).toBe(true);
    expectEnded(onPhone, 'after password change');
    expect(onLaptop.closed).toBeNull();
  });

  it('an operator disabling the account closes its sockets', async () => {
    const token = await h.register('0951000003');
    const conv = await memberSays(token, 'about to be disabled');
    const p = await Peer.authed(token);
    await ok('admin/setUserFlags', { id: await h.userId('0951000003'), disabled: true, reason: 'test' }, op);
    expect((await h.call('support/history', {}, token)).http).toBe(401);
    expect(await waitFor(() => p.closed !== null, 2_000)).toBe(true);
    await operatorSays(op, conv, 'after disable');
    await sleep(300);
    expectEnded(p, 'after disable');
  });

  it("an operator's socket gets no member message after the operator logs out", async () => {
    const member = await h.register('0951000004');
    const opToken = await operatorLogin();
    const other = await operatorLogin(); // another operator session stays open
    const po = await Peer.authed(opToken);
    const stillIn = await Peer.authed(other);
    await memberSays(member, 'member before');
    expect(await waitFor(() => po.saw('member before'), 5_000)).toBe(true);

    await ok('user/logout', {}, opToken);
    expect(await waitFor(() => po.closed !== null, 2_000)).toBe(true);
    await memberSays(member, 'member after');
    expect(await waitFor(() => stillIn.saw('member after'), 5_000)).toBe(true);
    expectEnded(po, 'member after');
    expect(stillIn.closed).toBeNull();
  });

  it('an expired session is found by the periodic re-check and its socket closed', async () => {
    const token = await h.register('0951000005');
    const conv = await memberSays(token, 'expiring');
    const p = await Peer.authed(token);
    await h.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(sessions.tokenHash, hashToken(token)));
    await sleep(2_100); // the session cache (SESSION_CACHE_MS) forgets it
    expect(await h.services.supportHub.recheck()).toBe(1);
    expect(await waitFor(() => p.closed !== null, 2_000)).toBe(true);
    await operatorSays(op, conv, 'after expiry');
    await sleep(300);
    expectEnded(p, 'after expiry');
  });
});
