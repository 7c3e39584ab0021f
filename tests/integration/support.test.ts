/**
 * Customer service (contract/support.ts) over a real `/ws` socket and the HTTP API, on PGlite and
 * PostgreSQL: two members and an operator authenticate their sockets and exchange messages
 * (`say`); each side's unread count rises and is cleared by reading; the operator assigns and
 * resolves, and a new member message reopens; a member never sees another member's conversation
 * (no event on its socket, REST history is its own, an operator-only endpoint is refused); a
 * member's image is its own `support` upload; bad `say` messages are refused without a write.
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { supportMessages } from '../../server/db/schema';
import { OPERATOR, startHarness, type Harness } from './harness';
import { injectClient, uploadOk } from './support/client';
import { png } from './support/files';

let h: Harness;
let url: string;
beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address();
  url = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/ws`;
});
afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await h?.close();
});

type Msg = Record<string, any>;
const clients: Peer[] = [];

/** A socket that records every support-related message it receives. */
class Peer {
  ws: WebSocket;
  got: Msg[] = [];
  private waiters: Array<{ pred: (m: Msg) => boolean; done: (m: Msg) => void }> = [];
  constructor() {
    this.ws = new WebSocket(url);
    clients.push(this);
    this.ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString());
      for (const m of Array.isArray(frame) ? frame : [frame]) {
        if (m.type === 'hb') continue;
        this.got.push(m);
        for (const w of [...this.waiters])
          if (w.pred(m)) {
            this.waiters.splice(this.waiters.indexOf(w), 1);
            w.done(m);
          }
      }
    });
  }
  async open(token: string, role: 'member' | 'operator'): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    const authed = this.next((m) => m.type === 'authed' || m.type === 'error');
    this.send({ op: 'auth', token });
    expect(await authed).toEqual({ type: 'authed', role });
    return this;
  }
  send(m: object) {
    this.ws.send(JSON.stringify(m));
  }
  /** The first message (from now on, or already received after `from`) matching pred. */
  next(pred: (m: Msg) => boolean, timeoutMs = 5_000): Promise<Msg> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('timed out waiting for a message')), timeoutMs);
      this.waiters.push({
        pred,
        done: (m) => {
          clearTimeout(t);
          resolve(m);
        },
      });
    });
  }
  messageWith(text: string) {
    return this.next((m) => m.type === 'support' && m.event === 'message' && m.message.text === text);
  }
  supportEvents() {
    return this.got.filter((m) => m.type === 'support');
  }
}

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

describe('support conversation over /ws', () => {
  let alice: string;
  let bob: string;
  let op: string;
  let pa: Peer;
  let pb: Peer;
  let po: Peer;
  let aliceConv: number;
  let bobConv: number;

  it('members and an operator authenticate their sockets; a bad token is refused', async () => {
    alice = await h.register('0941000001');
    bob = await h.register('0941000002');
    op = await h.operatorToken();
    pa = await new Peer().open(alice, 'member');
    pb = await new Peer().open(bob, 'member');
    po = await new Peer().open(op, 'operator');
    const stranger = new Peer();
    await new Promise((r) => stranger.ws.once('open', r));
    const refused = stranger.next((m) => m.type === 'error');
    stranger.send({ op: 'auth', token: 'not-a-session' });
    expect(await refused).toEqual({ type: 'error', msg: 'notLoggedIn' });
    const unauth = stranger.next((m) => m.type === 'error');
    stranger.send({ op: 'say', text: 'hello?' });
    expect(await unauth).toEqual({ type: 'error', msg: 'notLoggedIn' });
  });

  it('a member message reaches its own socket and the operator, never the other member', async () => {
    const seenByOp = po.messageWith('Alice: my deposit?');
    const seenByAlice = pa.messageWith('Alice: my deposit?');
    pa.send({ op: 'say', text: 'Alice: my deposit?' });
    const ev = await seenByOp;
    await seenByAlice;
    aliceConv = ev.conversation.id;
    expect(ev.message).toMatchObject({ from: 'member', text: 'Alice: my deposit?', uploadId: null });
    expect(ev.conversation).toMatchObject({ status: 'open', operatorUnread: 1, memberUnread: 0 });

    const bobSeen = po.messageWith('Bob: hello');
    pb.send({ op: 'say', text: 'Bob: hello' });
    bobConv = (await bobSeen).conversation.id;
    expect(bobConv).not.toBe(aliceConv);
    // Two more from Alice: her operator-unread count is 3.
    const third = po.messageWith('Alice: 3');
    pa.send({ op: 'say', text: 'Alice: 2' });
    pa.send({ op: 'say', text: 'Alice: 3' });
    expect((await third).conversation.operatorUnread).toBe(3);

    expect(pb.supportEvents().some((m) => m.conversation?.id === aliceConv)).toBe(false);
    expect(pa.supportEvents().some((m) => m.conversation?.id === bobConv)).toBe(false);
    const list = await ok('admin/supportConversations', { status: 'open', page: 1, pageSize: 20 }, op);
    const mine = list.items.find((c: { id: number }) => c.id === aliceConv);
    expect(mine).toMatchObject({ account: '0941000001', operatorUnread: 3, lastText: 'Alice: 3' });
  });

  it('the operator replies over the socket; the member sees it live and its unread count', async () => {
    const atAlice = pa.messageWith('We are checking it.');
    po.send({ op: 'say', conversationId: aliceConv, text: 'We are checking it.' });
    const ev = await atAlice;
    expect(ev.message.from).toBe('operator');
    expect(ev.conversation.memberUnread).toBe(1);
    // A REST reply arrives live too.
    const second = pa.messageWith('Approved now.');
    await ok('admin/supportReply', { conversationId: aliceConv, text: 'Approved now.' }, op);
    expect((await second).conversation.memberUnread).toBe(2);
    expect(pb.supportEvents().some((m) => m.message?.text === 'Approved now.')).toBe(false);

    const history = await ok('support/history', { limit: 3 }, alice);
    expect(history.conversation).toMatchObject({ id: aliceConv, memberUnread: 2, operatorUnread: 3 });
    expect(history.items.map((m: { text: string }) => m.text)).toEqual([
      'Approved now.',
      'We are checking it.',
      'Alice: 3',
    ]);
    expect(history.hasMore).toBe(true);
    const older = await ok('support/history', { limit: 10, beforeId: history.items[2].id }, alice);
    expect(older.items.map((m: { text: string }) => m.text)).toEqual(['Alice: 2', 'Alice: my deposit?']);
    expect(older.hasMore).toBe(false);
  });

  it('reading clears the reader side only, and the other side sees it', async () => {
    const atOp = po.next(
      (m) => m.type === 'support' && m.event === 'conversation' && m.conversation.memberUnread === 0,
    );
    expect(await ok('support/read', {}, alice)).toMatchObject({ memberUnread: 0, operatorUnread: 3 });
    await atOp;
    expect(await ok('admin/supportRead', { conversationId: aliceConv }, op)).toMatchObject({
      memberUnread: 0,
      operatorUnread: 0,
    });
  });

  it('assign to me and resolve; a new member message reopens it', async () => {
    expect(await ok('admin/supportAssign', { conversationId: aliceConv }, op)).toMatchObject({
      assignedTo: OPERATOR.account,
    });
    const resolvedAtAlice = pa.next((m) => m.type === 'support' && m.conversation?.status === 'resolved');
    expect(await ok('admin/supportResolve', { conversationId: aliceConv }, op)).toMatchObject({
      status: 'resolved',
    });
    await resolvedAtAlice;
    const open = await ok('admin/supportConversations', { status: 'open', page: 1, pageSize: 20 }, op);
    expect(open.items.map((c: { id: number }) => c.id)).not.toContain(aliceConv);
    const reopened = po.messageWith('One more question');
    pa.send({ op: 'say', text: 'One more question' });
    expect((await reopened).conversation).toMatchObject({
      status: 'open',
      assignedTo: OPERATOR.account,
      operatorUnread: 1,
    });
  });

  it('a member reaches only its own conversation: REST and operator-only endpoints', async () => {
    const bobHistory = await ok('support/history', { limit: 50 }, bob);
    expect(bobHistory.conversation.id).toBe(bobConv);
    expect(bobHistory.items.every((m: { conversationId: number }) => m.conversationId === bobConv)).toBe(
      true,
    );
    // A member's `conversationId` in a say is ignored: it lands in its own conversation.
    const own = pb.messageWith('Bob: aimed at Alice');
    pb.send({ op: 'say', conversationId: aliceConv, text: 'Bob: aimed at Alice' });
    expect((await own).conversation.id).toBe(bobConv);
    for (const name of ['admin/supportHistory', 'admin/supportReply', 'admin/supportResolve'] as const) {
      const r = await h.call(name, { conversationId: aliceConv, text: 'x' }, bob);
      expect([name, r.http, r.body.msg]).toEqual([name, 403, 'forbidden']);
    }
    expect(pa.supportEvents().some((m) => m.message?.text === 'Bob: aimed at Alice')).toBe(false);
  });

  it('an image is the member own support upload; others are refused; bad says write nothing', async () => {
    const c = injectClient(h.app);
    const image = await uploadOk(c, alice, 'support', png(41));
    const sent = await ok('support/send', { uploadId: image }, alice);
    expect(sent.message).toMatchObject({ uploadId: image, text: null });
    const bobsImage = await uploadOk(c, bob, 'support', png(42));
    expect((await h.call('support/send', { uploadId: bobsImage }, alice)).body.msg).toBe('parameterError');
    const receipt = await uploadOk(c, alice, 'receipt', png(43));
    expect((await h.call('support/send', { uploadId: receipt }, alice)).body.msg).toBe('parameterError');

    const [before] = await h.database.db.select({ n: count() }).from(supportMessages);
    for (const bad of [
      { op: 'say' },
      { op: 'say', text: '   ' },
      { op: 'say', text: 'x'.repeat(2_001) },
      { op: 'say', text: 'bell\u0007' },
      { op: 'say', uploadId: receipt },
    ]) {
      const err = pa.next((m) => m.type === 'error');
      pa.send(bad);
      expect((await err).msg).toBe('parameterError');
    }
    const opBad = po.next((m) => m.type === 'error');
    po.send({ op: 'say', text: 'to nobody' });
    expect((await opBad).msg).toBe('parameterError');
    const [after] = await h.database.db.select({ n: count() }).from(supportMessages);
    expect(after!.n).toBe(before!.n);
  });

  it('say is rate limited per connection', async () => {
    for (let i = 0; i < 30; i++) pb.send({ op: 'say', text: `burst ${i}` });
    await pb.next((m) => m.type === 'error' && m.msg === 'tooFrequent');
  });
});
