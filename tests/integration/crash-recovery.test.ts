/**
 * The server killed with SIGKILL in the middle of a load of deposits and withdrawals, then
 * restarted on the same PostgreSQL database, loses nothing and applies nothing twice (issue 4
 * acceptance "Against PostgreSQL: … the server killed with SIGKILL in the middle of a load of
 * deposits and withdrawals, then restarted, loses nothing and the reconciliation reports zero
 * differences"; item 9 "a retry with the same key returns the first result and moves nothing").
 *
 * The real server runs as a child process (`node --import tsx server/main.ts`, so the pid we kill
 * is the server itself) on a fresh database. Members are set up over HTTP (register, KYC photos,
 * approval, card, funds password, receipts uploaded ahead). Then every member runs a seeded chain
 * of requests in parallel with the others: deposit (idempotency key) → operator approves or
 * rejects → withdraw (idempotency key) → operator approves or rejects, and so on. After a seeded
 * number of completed requests the server is SIGKILLed; every request whose answer was not
 * received is retried, after the restart, with the same idempotency key and body (reviews, which
 * have no key, are retried as they are: a second review is refused with 409, and the record must
 * then be in the state the first one asked for). Afterwards:
 * - every retried request got a definitive answer (not "still running" forever);
 * - every acknowledged deposit and withdrawal is present exactly once, in the acknowledged state,
 *   and no request was applied twice (rows per member and per receipt, ledger transactions per
 *   reference);
 * - admin/reconcile reports zero differences, and every member's balances equal the sum of their
 *   postings and what the acknowledged operations add up to.
 *
 * PostgreSQL only: the embedded PGlite in file mode is single-process (one server process owns the
 * data directory), so there is no second process to kill and restart against the same live
 * database while a test process inspects it. This is the one conditional in the suite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointName } from '../../contract/api';
import { httpClient, idem, newKey, uploadOk, type Answer, type ApiClient } from './support/client';
import { png } from './support/files';
import {
  FUNDS_PASSWORD,
  createChannel,
  ok,
  openDepositHours,
  operatorLogin,
  readyMember,
  type ReadyMember,
} from './support/members';
import { seeded } from './support/random';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INVITE = 'CRASHTEST';
const OPERATOR = { account: 'op-crash', password: 'crash-operator-1' };
const MEMBERS = 8;
const CYCLES = 5;
const SEED = 20260104;
const READY_TIMEOUT_MS = 30_000;

/** A running server child process and its recent output (for diagnostics). */
interface Server {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** One request of the load: what was sent and every answer (or loss) it met. */
interface Sent {
  member: number;
  name: EndpointName;
  body: object;
  key?: string;
  /** Attempts whose answer never arrived (the connection died with the server). */
  lost: number;
  /** The final answer (after retries). */
  answer?: Answer;
  /** An answer that stayed "still running" (409 tooFrequent) after the restart. */
  stuck?: boolean;
}

// PostgreSQL only: vitest.config.ts runs this file in the `postgres` project alone (embedded
// PGlite is one process's database, so a killed server cannot be restarted on it while the test
// holds it open).
describe('SIGKILL in the middle of deposits and withdrawals', () => {
  // Computed in beforeAll: the describe body also runs (for collection) when skipped.
  let base: string;
  let dbName: string;
  let dbUrl: string;
  let dataDir: string;
  let port: number;
  let server: Server | null = null;
  let c: ApiClient;
  let op: string;
  let channelId: number;
  const members: Array<ReadyMember & { receipts: string[] }> = [];
  const sent: Sent[] = [];
  let killedAfter = -1;

  function startServer(): Promise<Server> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: dbUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        OPERATOR_ACCOUNT: OPERATOR.account,
        OPERATOR_PASSWORD: OPERATOR.password,
        INVITE_CODE: INVITE,
        LOG_LEVEL: 'warn',
        IMPORT_SYMBOLS: '2330',
        CLIENT_DIR: path.join(dataDir, 'no-client'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const keep = (b: Buffer) => {
      output.push(...b.toString('utf8').split('\n').filter(Boolean));
      if (output.length > 200) output.splice(0, output.length - 200);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return waitReady({ child, output, exited });
  }

  /** Polls common/config until the server answers (never a fixed sleep). */
  async function waitReady(s: Server): Promise<Server> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let gone = false;
    void s.exited.then(() => (gone = true));
    while (Date.now() < deadline) {
      if (gone) throw new Error(`server exited during start-up:\n${s.output.join('\n')}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/vue/common/config`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
          signal: AbortSignal.timeout(2_000),
        });
        if (res.status === 200 && ((await res.json()) as { status: number }).status === 1) return s;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    s.child.kill('SIGKILL');
    throw new Error(`server not ready after ${READY_TIMEOUT_MS} ms:\n${s.output.join('\n')}`);
  }

  async function sqlRows<T>(text: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    base = process.env.TEST_DATABASE_URL!;
    dbName = `crash_${randomBytes(6).toString('hex')}`;
    const u = new URL(base);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tw-crash-'));
    port = await freePort();
    server = await startServer();
    c = httpClient(`http://127.0.0.1:${port}`);
    op = await operatorLogin(c, OPERATOR.account, OPERATOR.password);
    await openDepositHours(c, op);
    channelId = await createChannel(c, op, {
      name: 'Crash channel',
      minMinor: 100_000,
      maxMinor: 100_000_000,
    });
    const ready = await Promise.all(
      Array.from({ length: MEMBERS }, (_, i) =>
        readyMember(c, op, INVITE, `09100000${String(i).padStart(2, '0')}`, { idSeed: 500 + i }),
      ),
    );
    for (const [i, m] of ready.entries()) {
      // Receipts are uploaded ahead: uploads have no idempotency key and are not part of the load.
      const receipts: string[] = [];
      for (let k = 0; k < CYCLES; k++)
        receipts.push(await uploadOk(c, m.token, 'receipt', png(1000 + i * 10 + k)));
      members.push({ ...m, receipts });
    }
  }, 90_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('survives a SIGKILL mid-load: retries with the same key, nothing lost, nothing doubled', async () => {
    const rng = seeded(SEED);
    const plannedRequests = MEMBERS * CYCLES * 4;
    const killAt = 15 + rng.int(Math.floor(plannedRequests / 2));
    let completed = 0;
    let restarting: Promise<void> | null = null;

    const crashAndRestart = async () => {
      const dying = server!;
      dying.child.kill('SIGKILL');
      await dying.exited;
      server = await startServer();
    };

    /** Sends one request; a lost answer waits for the restart and retries the same request. */
    async function send(member: number, name: EndpointName, body: object, token: string, key?: string) {
      const s: Sent = { member, name, body, key, lost: 0 };
      sent.push(s);
      for (;;) {
        let a: Answer;
        try {
          a = await c.call(name, body, token, key ? idem(key) : {});
        } catch (err) {
          if (!restarting) throw err;
          s.lost++;
          await restarting;
          continue;
        }
        if (a.body.msg === 'tooFrequent' && s.lost > 0 && !s.stuck) {
          // "Still running" can only be the attempt that died with the old process: give the
          // server a moment (bounded), then record it as stuck and stop retrying.
          const deadline = Date.now() + 2_000;
          while (Date.now() < deadline && a.body.msg === 'tooFrequent') {
            await new Promise((r) => setTimeout(r, 200));
            a = await c.call(name, body, token, key ? idem(key) : {});
          }
          if (a.body.msg === 'tooFrequent') s.stuck = true;
        }
        s.answer = a;
        if (++completed === killAt && !restarting) {
          killedAfter = completed;
          restarting = crashAndRestart();
        }
        return s;
      }
    }

    /** A review (no idempotency key): a retry after a lost answer may find it already done. */
    async function review(member: number, name: EndpointName, id: number, reason?: string) {
      return send(member, name, reason ? { id, reason } : { id }, op);
    }

    async function chain(i: number) {
      const m = members[i]!;
      const r = seeded(SEED + 1 + i);
      let available = 0; // what the acknowledged operations leave available
      for (let k = 0; k < CYCLES; k++) {
        const amount = (10 + r.int(490)) * 10_000; // NT$1,000 … NT$50,000
        const dep = await send(
          i,
          'user/recharge',
          { channelId, amountMinor: amount, receiptUploadId: m.receipts[k] },
          m.token,
          newKey(),
        );
        if (dep.answer?.body.status === 1) {
          const approve = r.next() < 0.8;
          const rv = approve
            ? await review(i, 'admin/approveDeposit', dep.answer.body.data.id)
            : await review(i, 'admin/rejectDeposit', dep.answer.body.data.id, 'no transfer seen');
          if (approve && (rv.answer?.body.status === 1 || rv.lost > 0)) available += amount;
        }
        if (available >= 100_000 && r.next() < 0.75) {
          const wAmount = (1 + r.int(Math.floor(available / 10_000) - 9)) * 10_000 + 90_000;
          const w = await send(
            i,
            'user/withdraw',
            { amountMinor: Math.min(wAmount, available), fundsPassword: FUNDS_PASSWORD, cardId: m.cardId },
            m.token,
            newKey(),
          );
          if (w.answer?.body.status === 1) {
            const approve = r.next() < 0.7;
            if (approve) await review(i, 'admin/approveWithdrawal', w.answer.body.data.id);
            else await review(i, 'admin/rejectWithdrawal', w.answer.body.data.id, 'bank refused');
            available -= approve ? (w.body as { amountMinor: number }).amountMinor : 0;
          }
        }
      }
    }

    await Promise.all(members.map((_, i) => chain(i)));
    if (restarting) await restarting;

    // The kill really happened in the middle, with requests in flight.
    expect(killedAfter).toBe(killAt);
    expect(completed).toBeGreaterThan(killAt);
    expect(sent.filter((s) => s.lost > 0).length).toBeGreaterThan(0);

    // Every answer is a success or a refusal from the catalogue; never a 5xx; and the only
    // refusals are reviews retried after a lost answer, found already done (409).
    const unexpected = sent.filter(
      (s) =>
        !s.stuck &&
        (!s.answer ||
          s.answer.http >= 500 ||
          (s.answer.body.status !== 1 &&
            !(s.lost > 0 && s.name.startsWith('admin/') && s.answer.http === 409))),
    );
    expect(
      unexpected.map((s) => `${s.name} ${JSON.stringify(s.body)} → ${JSON.stringify(s.answer)}`),
    ).toEqual([]);
  }, 60_000);

  /** The state the load asked each record to end in ("deposit:12" → approved). */
  const intended = () => {
    const out = new Map<string, 'approved' | 'rejected'>();
    for (const s of sent) {
      const id = (s.body as { id?: number }).id;
      if (id === undefined) continue;
      const kind = s.name.includes('Deposit') ? 'deposit' : 'withdrawal';
      out.set(`${kind}:${id}`, s.name.includes('approve') ? 'approved' : 'rejected');
    }
    return out;
  };
  const acked = (name: EndpointName) => sent.filter((s) => s.name === name && s.answer?.body.status === 1);
  const rowsOf = (table: 'deposits' | 'withdrawals') =>
    sqlRows<{ id: number; user_id: number; amount_minor: string; status: string }>(
      `select id, user_id, amount_minor::text, status from ${table} where user_id = any($1::int[]) order by id`,
      [members.map((m) => m.userId)],
    );

  it('answers every retried request with its first result (none left "still running")', async () => {
    expect(
      sent.filter((s) => s.stuck).map((s) => `${s.name} ${JSON.stringify(s.body)} key ${s.key}`),
      'requests answered 409 tooFrequent forever after the restart',
    ).toEqual([]);
    const keys = await sqlRows<{ key: string; state: string }>(
      `select key, state from idempotency_keys where key = any($1::text[])`,
      [sent.filter((s) => s.key).map((s) => s.key!)],
    );
    expect(
      keys.filter((k) => k.state !== 'done').map((k) => k.key),
      'idempotency keys left pending',
    ).toEqual([]);
  });

  it('has every acknowledged deposit and withdrawal exactly once, in the acknowledged state', async () => {
    const want = intended();
    for (const [name, table] of [
      ['user/recharge', 'deposits'],
      ['user/withdraw', 'withdrawals'],
    ] as const) {
      const rows = await rowsOf(table);
      for (const s of acked(name)) {
        const found = rows.filter((r) => r.id === s.answer!.body.data.id);
        expect(found, `${table} ${s.answer!.body.data.id}`).toHaveLength(1);
        const row = found[0]!;
        expect(row.user_id).toBe(members[s.member]!.userId);
        expect(Number(row.amount_minor)).toBe((s.body as { amountMinor: number }).amountMinor);
        expect(row.status, `${table} ${row.id}`).toBe(
          want.get(`${table.slice(0, -1)}:${row.id}`) ?? 'pending',
        );
      }
    }
  });

  it('applied nothing the client was not told about', async () => {
    for (const [name, table] of [
      ['user/recharge', 'deposits'],
      ['user/withdraw', 'withdrawals'],
    ] as const) {
      const ackedIds = new Set(acked(name).map((s) => s.answer!.body.data.id as number));
      const rows = await rowsOf(table);
      expect(
        rows.filter((r) => !ackedIds.has(r.id)).map((r) => `${table} ${r.id} ${r.amount_minor} ${r.status}`),
        'rows whose request never got its answer',
      ).toEqual([]);
    }
  });

  it('applied no request twice: one deposit per receipt, one ledger transaction per business event', async () => {
    const perReceipt = await sqlRows<{ receipt_upload_id: string; n: number }>(
      `select receipt_upload_id, count(*)::int as n from deposits group by receipt_upload_id having count(*) > 1`,
    );
    expect(perReceipt).toEqual([]);
    const perRef = await sqlRows<{ type: string; ref_type: string; ref_id: string; n: number }>(
      `select type, ref_type, ref_id, count(*)::int as n from ledger_transactions
         where ref_type is not null group by type, ref_type, ref_id order by ref_type, ref_id, type`,
    );
    expect(perRef.filter((r) => r.n !== 1)).toEqual([]);
    const txs = new Set(perRef.map((r) => `${r.type}|${r.ref_type}|${r.ref_id}`));
    for (const d of await rowsOf('deposits'))
      expect(txs.has(`deposit|deposit|${d.id}`), `deposit ${d.id} ${d.status}`).toBe(d.status === 'approved');
    for (const w of await rowsOf('withdrawals')) {
      expect(txs.has(`withdrawal|withdrawal|${w.id}`), `withdrawal ${w.id} frozen`).toBe(true);
      expect(txs.has(`withdrawalPaid|withdrawal|${w.id}`), `withdrawal ${w.id} paid`).toBe(
        w.status === 'approved',
      );
      expect(txs.has(`withdrawalRejected|withdrawal|${w.id}`), `withdrawal ${w.id} returned`).toBe(
        w.status === 'rejected',
      );
    }
    // Each keyed request claimed its key once.
    const keys = await sqlRows<{ n: number }>(
      `select count(*)::int as n from idempotency_keys where key = any($1::text[])`,
      [sent.filter((s) => s.key).map((s) => s.key!)],
    );
    expect(keys[0]!.n).toBe(sent.filter((s) => s.key).length);
  });

  it('reconciles with zero differences; balances equal the postings and the acknowledged operations', async () => {
    const rec = ok(await c.call('admin/reconcile', {}, op), 'reconcile');
    expect(rec).toMatchObject({
      balanceDifferences: [],
      unbalancedTransactions: [],
      negativeBalances: [],
      clean: true,
    });

    for (const [i, m] of members.entries()) {
      const byPurpose = await sqlRows<{ purpose: string; cached: string; from_postings: string }>(
        `select a.purpose, a.balance_minor::text as cached, coalesce(sum(p.amount_minor), 0)::text as from_postings
         from ledger_accounts a left join ledger_postings p on p.account_id = a.id
         where a.user_id = $1 and a.currency = 'TWD' group by a.id, a.purpose, a.balance_minor`,
        [m.userId],
      );
      for (const r of byPurpose)
        expect(Number(r.cached), `member ${i} ${r.purpose}`).toBe(Number(r.from_postings));
      const bal = (p: string) => Number(byPurpose.find((r) => r.purpose === p)?.cached ?? 0);

      const sums = await sqlRows<{ dep: string; paid: string; pending: string }>(
        `select
           (select coalesce(sum(amount_minor), 0) from deposits where user_id = $1 and status = 'approved')::text as dep,
           (select coalesce(sum(amount_minor), 0) from withdrawals where user_id = $1 and status = 'approved')::text as paid,
           (select coalesce(sum(amount_minor), 0) from withdrawals where user_id = $1 and status = 'pending')::text as pending`,
        [m.userId],
      );
      const { dep, paid, pending } = sums[0]!;
      expect(bal('available'), `member ${i} available`).toBe(Number(dep) - Number(paid) - Number(pending));
      expect(bal('frozen'), `member ${i} frozen`).toBe(Number(pending));

      // …and what the acknowledged answers add up to.
      const mine = sent.filter((s) => s.member === i);
      const approvedDeposits = new Set(
        mine.filter((s) => s.name === 'admin/approveDeposit').map((s) => (s.body as { id: number }).id),
      );
      const ackedDeposits = mine
        .filter((s) => s.name === 'user/recharge' && s.answer?.body.status === 1)
        .filter((s) => approvedDeposits.has(s.answer!.body.data.id))
        .reduce((sum, s) => sum + (s.body as { amountMinor: number }).amountMinor, 0);
      expect(Number(dep), `member ${i} approved deposits`).toBe(ackedDeposits);
      const approvedWithdrawals = new Set(
        mine.filter((s) => s.name === 'admin/approveWithdrawal').map((s) => (s.body as { id: number }).id),
      );
      const ackedPaid = mine
        .filter((s) => s.name === 'user/withdraw' && s.answer?.body.status === 1)
        .filter((s) => approvedWithdrawals.has(s.answer!.body.data.id))
        .reduce((sum, s) => sum + (s.body as { amountMinor: number }).amountMinor, 0);
      expect(Number(paid), `member ${i} paid out`).toBe(ackedPaid);
      expect(Number(paid)).toBeLessThanOrEqual(Number(dep));

      const balances = ok(await c.call('user/balances', {}, m.token), 'balances') as Array<{
        currency: string;
        availableMinor: number;
        frozenMinor: number;
      }>;
      expect(balances.find((b) => b.currency === 'TWD')).toMatchObject({
        availableMinor: bal('available'),
        frozenMinor: bal('frozen'),
      });
    }
  });
});
