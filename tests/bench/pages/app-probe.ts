/**
 * Bench-only instrumentation of the real member app (index.html), for measuring the real
 * `#/market/market` route. tests/bench/vite.config.ts rewrites the one `createAppStore()` call of
 * src/app/main.tsx into `instrumentAppStore(createAppStore())` in the bench build only; nothing
 * else of the app changes, and without the driver's `window.__bench` (the page opened by hand)
 * the store is returned untouched.
 *
 * What it adds, for tests/bench/instrument.ts:
 * - store dispatches are counted, and the worker probe's counts (messages absorbed, worker task
 *   time, the symbols subscribed on the `quotes` channel) are forwarded (./probe.ts);
 * - feed-to-paint without touching the app's components: a MutationObserver sees the DOM writes
 *   into a quote row (`.quote-row`, `data-testid="market-row-<symbol>"`: React's commit, or the
 *   ranking row's painter in the store's notification) as a microtask of the task that wrote
 *   them; for each row on screen whose text changed, the quote the store now holds for that
 *   symbol is the one the row shows, and its `ts` (and worker receipt time) is handed to
 *   `__bench.committed`. So the route's figure counts one sample per row update that changed what
 *   the user sees, from the quote shown; the bench page (stream-page.tsx) counts every quote
 *   dispatched for a visible row. Rows that re-render without a visible change give no sample.
 *   Which rows are on screen is worked out again only after a scroll, a resize or rows coming or
 *   going (in the next animation frame), so a window without scrolling pays nothing for it (an
 *   IntersectionObserver would compute intersections on every frame);
 * - `__bench.ready` once the list (or the detail screen) shows a streamed quote: a row with a
 *   price (or the detail's last price), a quote batch
 *   from the worker dispatched, and the worker subscribed to at least one symbol.
 */
import {
  quoteBatchReceived,
  quoteOf,
  quoteReceivedAt,
  type MarketRootState,
} from '../../../src/live/quotes-slice';
import { bench, countDispatches, listenToWorkerProbe } from './probe';

const ROW_SELECTOR = '.quote-row';
const ROW_TESTID_PREFIX = 'market-row-';
/** How often readiness is checked before the window (stops once ready). */
const READY_POLL_MS = 250;

type AppStoreLike = { dispatch: (action: never) => unknown; getState: () => unknown };

/** The quote row a DOM node belongs to, if any. */
function rowOf(node: Node | null): HTMLElement | null {
  const el = node instanceof Element ? node : (node?.parentElement ?? null);
  return el?.closest<HTMLElement>(ROW_SELECTOR) ?? null;
}

/** Quote rows at or under a node that was added or removed. */
function rowsIn(node: Node): HTMLElement[] {
  if (!(node instanceof Element)) return [];
  const out = [...node.querySelectorAll<HTMLElement>(ROW_SELECTOR)];
  if (node.matches(ROW_SELECTOR)) out.push(node as HTMLElement);
  return out;
}

/**
 * Instruments the app's store for the stream benchmark (see the module docstring) and returns it.
 * A no-op without `window.__bench`.
 */
export function instrumentAppStore<S extends AppStoreLike>(store: S): S {
  const b = bench();
  if (!b) return store;
  b.info.page = 'route';
  listenToWorkerProbe();
  let batches = 0;
  countDispatches(store, (action) => {
    if (quoteBatchReceived.match(action)) batches++;
  });

  let onScreen = new Set<Element>();
  let recount = false;
  const countOnScreen = () => {
    recount = false;
    const next = new Set<Element>();
    for (const row of document.querySelectorAll(ROW_SELECTOR)) {
      const r = row.getBoundingClientRect();
      if (r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth) next.add(row);
    }
    onScreen = next;
  };
  const recountSoon = () => {
    if (recount) return;
    recount = true;
    requestAnimationFrame(countOnScreen);
  };
  addEventListener('scroll', recountSoon, { passive: true, capture: true });
  addEventListener('resize', recountSoon, { passive: true });

  new MutationObserver((records) => {
    const changed = new Set<HTMLElement>();
    for (const r of records) {
      if (r.type === 'childList') {
        for (const n of r.addedNodes) if (rowsIn(n).length) recountSoon();
        for (const n of r.removedNodes)
          for (const row of rowsIn(n)) {
            onScreen.delete(row);
            recountSoon();
          }
      }
      const row = rowOf(r.target);
      if (row && onScreen.has(row)) changed.add(row);
    }
    if (changed.size === 0) return;
    const quotes = (store.getState() as MarketRootState).quotes;
    for (const row of changed) {
      const symbol = row.dataset.testid?.startsWith(ROW_TESTID_PREFIX)
        ? row.dataset.testid.slice(ROW_TESTID_PREFIX.length)
        : null;
      const q = symbol ? quoteOf(quotes, symbol) : undefined;
      if (!q || !symbol) continue;
      b.committed(q.ts, quoteReceivedAt(quotes, symbol) ?? Number.NaN);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });

  const poll = setInterval(() => {
    const rows = document.querySelectorAll<HTMLElement>(ROW_SELECTOR);
    // The list (a priced row) or the detail screen (its last price).
    const priced =
      [...rows].some((r) => /\d/.test(r.querySelector('.quote-last')?.textContent ?? '')) ||
      /\d/.test(document.querySelector('[data-testid="detail-last"]')?.textContent ?? '');
    const subscribed = (b.info.quoteSymbols as string[] | undefined)?.length ?? 0;
    b.info.rows = rows.length;
    b.info.rowsOnScreen = onScreen.size;
    b.info.hash = location.hash;
    if (priced && batches > 0 && subscribed > 0) {
      b.ready = true;
      clearInterval(poll);
    }
  }, READY_POLL_MS);
  return store;
}
