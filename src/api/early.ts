/**
 * Early answers: a public query that index.html's entry (src/app/entry.ts) starts before the app
 * has loaded, for the screen the URL opens (the market list's first page, a stock's detail), so
 * its data is on the way while the app's chunks download; the static shell shows it as soon as it
 * comes (src/app/shell-fill.ts), the app's first render starts from it (src/app/early-seed.ts)
 * and the app's first call with the same endpoint and body takes it instead of asking again
 * (./base-query.ts), once.
 *
 * Only public endpoints (sent without the session headers) and only while fresh: an answer older
 * than EARLY_MAX_AGE_MS (wall ms since it was asked) is dropped and the app asks again.
 */
import type { EndpointName } from '../../contract/api';
import { API_BASE } from '../../contract/entry-constants';

/** Wall ms an early answer stays usable by the app (the market list is polled every second). */
export const EARLY_MAX_AGE_MS = 5_000;

/** An HTTP answer: its status and its JSON body (null when the body was not JSON). */
export interface EarlyAnswer {
  httpStatus: number;
  body: unknown;
}

interface Entry {
  /** Wall ms (Date.now) when it was asked. */
  at: number;
  answer: Promise<EarlyAnswer>;
  /** The answer once it came (for a synchronous first render). */
  settled?: EarlyAnswer;
}

const entries = new Map<string, Entry>();

const keyOf = (name: EndpointName, body: unknown): string => `${name} ${JSON.stringify(body ?? {})}`;

/**
 * Asks `name` with `body` now (POST JSON, no session headers) and keeps the answer for the app.
 * A network failure settles as `{httpStatus: 0, body: null}`. Returns the answer's promise.
 */
export function startEarly(name: EndpointName, body: unknown): Promise<EarlyAnswer> {
  const entry: Entry = {
    at: Date.now(),
    answer: fetch(`${API_BASE}${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body ?? {}),
    })
      .then(async (res) => ({ httpStatus: res.status, body: await res.json().catch(() => null) }))
      .catch(() => ({ httpStatus: 0, body: null })),
  };
  void entry.answer.then((a) => (entry.settled = a));
  entries.set(keyOf(name, body), entry);
  return entry.answer;
}

/** The fresh entry for `name` and `body`, if any (a stale one is dropped). */
function fresh(name: EndpointName, body: unknown): Entry | undefined {
  const key = keyOf(name, body);
  const entry = entries.get(key);
  if (entry && Date.now() - entry.at > EARLY_MAX_AGE_MS) entries.delete(key);
  return entries.get(key);
}

/**
 * The early answer for exactly this call, consumed (a second call asks the server), or null when
 * none was asked, it failed on the network, or it is stale.
 */
export function takeEarly(name: EndpointName, body: unknown): Promise<EarlyAnswer> | null {
  if (entries.size === 0) return null; // every query asks here: no key to build once they are gone
  const entry = fresh(name, body);
  if (!entry || entry.settled?.httpStatus === 0) return null;
  entries.delete(keyOf(name, body));
  return entry.answer;
}

/**
 * The envelope `data` of a fresh, successful early answer that has already come, without
 * consuming it (the first render shows it; the first call still takes it). Undefined otherwise.
 */
export function peekEarlyData(name: EndpointName, body: unknown): unknown {
  const settled = fresh(name, body)?.settled;
  const env = settled?.body as { status?: unknown; data?: unknown } | null | undefined;
  return settled && settled.httpStatus === 200 && env?.status === 1 ? env.data : undefined;
}

/**
 * The fresh, successful early answers of `name` that have already come: each request's body and
 * its envelope `data` (for seeding the app's state before its first render, src/app/early-seed.ts).
 */
export function earlyData(name: EndpointName): Array<{ body: unknown; data: unknown }> {
  const out: Array<{ body: unknown; data: unknown }> = [];
  for (const key of [...entries.keys()]) {
    if (!key.startsWith(`${name} `)) continue;
    const body: unknown = JSON.parse(key.slice(name.length + 1));
    const data = peekEarlyData(name, body);
    if (data !== undefined) out.push({ body, data });
  }
  return out;
}

let drawn: Promise<unknown> = Promise.resolve();

/**
 * Registers the static shell's drawing of early answers (src/app/entry.ts): the app's first
 * render waits for it (`earlyDrawn`), so it starts from what the shell shows and never races it.
 */
export function drawingEarly(drawing: Promise<unknown>): void {
  drawn = drawing.catch(() => undefined);
}

/** Resolves once the shell has drawn its early answers, or after `maxMs` (wall ms) at the latest. */
export function earlyDrawn(maxMs: number): Promise<void> {
  return Promise.race([
    drawn.then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, maxMs)),
  ]);
}
