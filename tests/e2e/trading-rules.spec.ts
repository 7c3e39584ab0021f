/**
 * Trading by the rules in Chromium on the real server (replayed market at 30× speed, MARKET_SEED 1),
 * issue 5 acceptance:
 * (a) a limit buy placed below the market waits as pending, fills when the replay reaches it, and
 *     shows in holdings;
 * (b) a 10× long is liquidated by a falling replay, and the member sees why (the margin-call
 *     banner, the liquidation notice, "forced liquidation" on the terminated position, the ratio
 *     against the threshold in its detail).
 *
 * The replay is deterministic but where it stands depends on the wall clock when the test runs, so
 * the test reads the future from the replay itself: it rebuilds, in this process, the session each
 * instrument is replaying now (server/market/replay.ts buildSession over the same seed data, the
 * day named by the live quote's `replayDate`), checks it against the live quote (same last price
 * at the same market time), and picks the instrument and price for which the rule must trigger
 * soon — but not before the order is in: a limit one tick under the lowest ask of the next
 * PLACE_S + PENDING_S seconds that a later ask reaches; a deposit that leaves a few ticks above
 * maintenance where the next minutes fall further. Near the end of a session it waits for the next.
 * Nothing on the server is changed for the test.
 */
import { limitClassOf } from '../../contract/dated-rules';
import { loadEtfClasses } from '../../server/market/rule-classes';
import { randomInt } from 'node:crypto';
import { desc, eq, lte, and } from 'drizzle-orm';
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openCosts, stepTicks, type InstrumentKind } from '../../contract/market-rules';
import { mulDivCeil, minorToDecimal } from '../../contract/money';
import { liquidationPriceMinor } from '../../contract/risk';
import type { Quote } from '../../contract/market';
import { openDatabase, type Database } from '../../server/db/client';
import { importMarketData } from '../../server/market/import';
import { dailyCandles } from '../../server/db/schema';
import { SESSION_MS, sessionStartMs } from '../../server/market/calendar';
import { createClock, type Clock } from '../../server/market/clock';
import { bookAt, buildSession, lastTradeAt, type ReplaySession } from '../../server/market/replay';
import { dayReference, loadCorporateActions, replayDayOf } from '../../server/market/reference';
import { previousTradingDay } from '../../server/market/calendar';
import { depositApproved, httpApi, type HttpCall } from '../support/http-funding';
import { submitOrder } from '../support/confirm-above';

/** Wall seconds allowed between choosing and the order reaching the server (UI steps). */
const PLACE_S = 25;
/** Wall seconds the limit order must stay pending after that (so the screen can show it). */
const PENDING_S = 15;
/** Wall seconds within which the rule must trigger after the order is in. */
const TRIGGER_S = 60;
/** Market ms before the session end when the closing call starts (13:25). */
const CLOSING_CALL_MS = 5 * 60_000;
const MARKET_SEED = 1;
const PASSWORD = 'abcd1234';

interface Creds {
  operator: string;
  password: string;
  invite: string;
}

function firstRun(): Creds {
  const text = readFileSync(path.join(process.env.E2E_DATA_DIR!, 'first-run.txt'), 'utf8');
  const get = (label: string) => new RegExp(`${label}: (\\S+)`).exec(text)![1]!;
  return {
    operator: get('operator account'),
    password: get('operator password'),
    invite: get('invitation code'),
  };
}

/** The replay as the server plays it, rebuilt from the same seed data. */
class ReplayOracle {
  private sessions = new Map<string, ReplaySession>();
  private constructor(private readonly d: Database) {}

  static async load(): Promise<ReplayOracle> {
    const d = await openDatabase('memory://');
    await importMarketData(d.db);
    return new ReplayOracle(d);
  }

  close() {
    return this.d.close();
  }

  /** The session of `symbol` replaying `date` (the bar with its previous close, as the feed selects it). */
  async session(symbol: string, kind: InstrumentKind, date: string): Promise<ReplaySession | null> {
    const key = `${symbol}|${date}`;
    const hit = this.sessions.get(key);
    if (hit) return hit;
    const rows = await this.d.db
      .select()
      .from(dailyCandles)
      .where(and(eq(dailyCandles.symbol, symbol), lte(dailyCandles.date, date)))
      .orderBy(desc(dailyCandles.date))
      .limit(3);
    const bars = rows.reverse().map((r) => ({
      date: r.date,
      openMinor: r.openMinor,
      highMinor: r.highMinor,
      lowMinor: r.lowMinor,
      closeMinor: r.closeMinor,
      volumeShares: r.volumeShares,
    }));
    // As the feed: the reference of `date` from the previous traded close (reference.ts).
    const bar = bars[bars.length - 1];
    const prev = bars[bars.length - 2];
    if (!bar || bar.date !== date) return null;
    const ref = dayReference({
      code: symbol,
      date,
      kind,
      limitClass: limitClassOf({
        kind,
        etf: (await loadEtfClasses()).get(symbol) ?? null,
        firstListingDay: null,
      }),
      bar,
      prevCloseMinor: prev?.closeMinor ?? null,
      afterGap: !!prev && prev.date !== previousTradingDay(date),
      actions: await loadCorporateActions(),
    });
    if (!ref) return null;
    const day = replayDayOf(bar, ref);
    const s = buildSession({ seed: MARKET_SEED, symbol, kind, day });
    this.sessions.set(key, s);
    return s;
  }
}

interface Now {
  clock: Clock;
  quotes: Quote[];
  /** Market ms after 09:00 of the current session at `wallMs`. */
  offsetMs: number;
  session: number;
  wallMs: number;
}

/**
 * The live quotes and where the replay clock stands, with at least `needWallS` wall seconds of
 * continuous trading left in the session; otherwise waits for the next session.
 */
async function now(call: HttpCall, needWallS: number): Promise<Now> {
  for (;;) {
    const list = await call<{ items: Quote[]; clock: { speed: number } }>('market/list', {
      page: 1,
      pageSize: 200,
    });
    expect(list.status).toBe(1);
    const clock = createClock({ mode: 'replay', speed: list.data.clock.speed });
    const wallMs = Date.now();
    const pos = clock.position(wallMs);
    const left = SESSION_MS - CLOSING_CALL_MS - pos.offsetMs;
    if (
      left >= needWallS * list.data.clock.speed * 1_000 &&
      pos.offsetMs > 10 * list.data.clock.speed * 1_000
    )
      return { clock, quotes: list.data.items, offsetMs: pos.offsetMs, session: pos.session, wallMs };
    // Wait for the next 09:00 (this day's, during its pre-open) and a few seconds for the server
    // to build the session (12 s at 30× is 6 market minutes, past the 5 required above).
    const nextOpen = clock.wallAt(pos.tradingPhase === 'preOpen' ? pos.session : pos.session + 1, 0);
    await new Promise((r) => setTimeout(r, Math.max(1_000, nextOpen - wallMs + 12_000)));
  }
}

/** The live quote's session rebuilt and checked: same last price at the quote's market time. */
async function verified(oracle: ReplayOracle, q: Quote): Promise<ReplaySession | null> {
  if (!q.replayDate) return null;
  const s = await oracle.session(q.symbol, q.kind, q.replayDate);
  if (!s) return null;
  const at = lastTradeAt(s, q.ts - sessionStartMs(q.replayDate));
  return at >= 0 && s.prices[at] === q.lastMinor ? s : null;
}

/** Trade indexes with market offset in (from, to]. */
function* trades(s: ReplaySession, fromMs: number, toMs: number) {
  for (let i = Math.max(0, lastTradeAt(s, fromMs)); i < s.count && s.offsets[i]! <= toMs; i++) yield i;
}

/** Wall ms at which the replay reaches market offset `offsetMs` of session `session`. */
const wallAt = (n: Now, offsetMs: number) => n.clock.wallAt(n.session, offsetMs);

interface LimitPlan {
  symbol: string;
  kind: InstrumentKind;
  limitMinor: number;
  fillWallMs: number;
  /** Wall ms the plan was made at (the placement window starts here). */
  decidedWallMs: number;
}

/** (a): the instrument whose next asks stay above a limit for PLACE_S + PENDING_S, then reach it soonest. */
async function planLimit(oracle: ReplayOracle, call: HttpCall): Promise<LimitPlan> {
  const n = await now(call, PLACE_S + PENDING_S + TRIGGER_S);
  const sp = n.clock.speed * 1_000;
  const from = n.offsetMs - 2 * sp; // the server's last tick may lag
  const pendingUntil = n.offsetMs + (PLACE_S + PENDING_S) * sp;
  const until = n.offsetMs + (PLACE_S + PENDING_S + TRIGGER_S) * sp;
  let best: LimitPlan | null = null;
  for (const q of n.quotes) {
    const s = await verified(oracle, q);
    if (!s) continue;
    let minAsk = Infinity;
    for (const i of trades(s, from, pendingUntil)) minAsk = Math.min(minAsk, bookAt(s, i).askMinor);
    const limit = stepTicks(minAsk, -1, q.kind);
    if (!Number.isFinite(minAsk) || limit < s.day.limitDownMinor) continue;
    for (const i of trades(s, pendingUntil, until)) {
      if (s.offsets[i]! <= pendingUntil) continue;
      if (bookAt(s, i).askMinor <= limit) {
        const fillWallMs = wallAt(n, s.offsets[i]!);
        if (!best || fillWallMs < best.fillWallMs)
          best = { symbol: q.symbol, kind: q.kind, limitMinor: limit, fillWallMs, decidedWallMs: n.wallMs };
        break;
      }
    }
  }
  expect(best, 'some instrument reaches a limit under its next asks within the window').not.toBeNull();
  return best!;
}

interface FallPlan {
  symbol: string;
  depositMinor: number;
  liquidationWallMs: number;
  bufferTicks: number;
  decidedWallMs: number;
}

/**
 * (b): the instrument and deposit for a 1-lot 10× long opened at market within PLACE_S: equity
 * `bufferTicks` ticks above maintenance at the dearest possible fill, and a later last price at or
 * under the liquidation price of the cheapest possible fill (so it is liquidated whatever the fill).
 */
async function planFall(oracle: ReplayOracle, call: HttpCall): Promise<FallPlan> {
  const n = await now(call, PLACE_S + TRIGGER_S);
  const sp = n.clock.speed * 1_000;
  const from = n.offsetMs - 2 * sp;
  const placed = n.offsetMs + PLACE_S * sp;
  const until = placed + TRIGGER_S * sp;
  let best: FallPlan | null = null;
  for (const q of n.quotes) {
    const s = await verified(oracle, q);
    if (!s) continue;
    const asks = new Set<number>();
    let minLastPlacing = Infinity;
    for (const i of trades(s, from, placed)) {
      asks.add(bookAt(s, i).askMinor);
      minLastPlacing = Math.min(minLastPlacing, s.prices[i]!);
    }
    if (asks.size === 0) continue;
    const cost = (a: number) =>
      openCosts({ priceMinor: a, lots: 1, leverage: 10, side: 'long', kind: q.kind });
    const aMax = Math.max(...asks);
    for (let k = 8; k >= 1; k--) {
      if (best && k < best.bufferTicks) break;
      const buffer = (stepTicks(aMax, k, q.kind) - aMax) * 1000;
      const deposit = cost(aMax).feeMinor + mulDivCeil(cost(aMax).marginMinor, 11_000, 10_000) + buffer;
      const liq = [...asks].map(
        (a) =>
          liquidationPriceMinor({
            side: 'long',
            openValueMinor: a * 1000,
            shares: 1000,
            kind: q.kind,
            otherEquityMinor: deposit - cost(a).feeMinor - cost(a).taxMinor,
            usedMarginMinor: cost(a).marginMinor,
            maintenanceBps: 11_000,
          }) ?? 0,
      );
      // Not liquidated while the order is being placed, liquidated after whatever the fill.
      if (minLastPlacing <= Math.max(...liq)) continue;
      let at: number | null = null;
      for (const i of trades(s, placed, until))
        if (s.offsets[i]! > placed && s.prices[i]! <= Math.min(...liq)) {
          at = wallAt(n, s.offsets[i]!);
          break;
        }
      if (at === null) continue;
      if (!best || k > best.bufferTicks || at < best.liquidationWallMs)
        best = {
          symbol: q.symbol,
          depositMinor: Math.max(deposit, 100_000),
          liquidationWallMs: at,
          bufferTicks: k,
          decidedWallMs: n.wallMs,
        };
      break;
    }
  }
  expect(best, 'some instrument falls through its liquidation price within the window').not.toBeNull();
  return best!;
}

/** A member registered over the API with `amountMinor` deposited and approved; logged in in `page`. */
async function member(page: Page, call: HttpCall, creds: Creds, amountMinor: number) {
  const account = `09${String(randomInt(10_000_000, 99_999_999))}`;
  const reg = await call<{ token: string }>('user/register', {
    account,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    inviteCode: creds.invite,
    agree: true,
  });
  expect(reg.status, JSON.stringify(reg)).toBe(1);
  const op = await call<{ token: string }>('admin/login', {
    account: creds.operator,
    password: creds.password,
  });
  await depositApproved(test.info().project.use.baseURL!, reg.data.token, op.data.token, amountMinor);
  await page.goto('/#/login/login');
  await page.getByTestId('login-account').fill(account);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-agree').click();
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/home\/index/);
  const token = (await page.evaluate(() => localStorage.getItem('tokend')))!;
  return { account, token, operatorToken: op.data.token };
}

/** Fills the detail screen's ticket for a 1-lot 10× long and submits it. */
async function placeLong(page: Page, symbol: string, limitMinor: number | null) {
  await page.goto(`/#/market/marketDetail?symbol=${symbol}`);
  await expect(page.getByTestId('detail-last')).not.toBeEmpty();
  await page.getByTestId('order-side-long').click();
  await page.getByTestId(limitMinor === null ? 'order-type-market' : 'order-type-limit').click();
  if (limitMinor !== null) await page.getByTestId('order-price').fill(minorToDecimal(limitMinor));
  await page.getByTestId('leverage-10').click();
  await page.getByTestId('order-lots').fill('1');
  await expect(page.getByTestId('order-preview-margin')).not.toBeEmpty();
  await submitOrder(page);
}

const shots = path.resolve('tests/e2e/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) });

let oracle: ReplayOracle;
let creds: Creds;
let call: HttpCall;

test.beforeAll(async () => {
  creds = firstRun();
  call = httpApi(test.info().project.use.baseURL!);
  oracle = await ReplayOracle.load();
});
test.afterAll(async () => oracle?.close());

test('a limit buy below the market waits as pending, fills when the replay reaches it, shows in holdings', async ({
  page,
}) => {
  test.setTimeout(600_000); // may wait ~5 min for the next continuous session
  const plan = await planLimit(oracle, call);
  const cost = openCosts({
    priceMinor: plan.limitMinor,
    lots: 1,
    leverage: 10,
    side: 'long',
    kind: plan.kind,
  });
  const m = await member(page, call, creds, Math.max(cost.requiredMinor * 3, 100_000));
  await placeLong(page, plan.symbol, plan.limitMinor);

  // Pending: in the orders tab, at its limit, funds frozen.
  const mine = async (tab: string) =>
    (
      await call<{ items: Array<{ id: number; symbol: string; status: string; limitPriceMinor: number }> }>(
        'trade/orders',
        { tab, page: 1, pageSize: 50 },
        m.token,
      )
    ).data.items;
  await expect.poll(async () => (await mine('orders')).length, { timeout: 10_000 }).toBe(1);
  const order = (await mine('orders'))[0]!;
  expect(order).toMatchObject({ symbol: plan.symbol, status: 'pending', limitPriceMinor: plan.limitMinor });
  expect(Date.now() - plan.decidedWallMs, 'the order was in within the planned window').toBeLessThan(
    PLACE_S * 1000,
  );
  await page.goto('/#/position/position?tab=orders');
  await expect(page.locator(`[data-testid="position-row-${order.id}"][data-status="pending"]`)).toBeVisible();
  await shot(page, 'rules-01-limit-pending');

  // Filled when the replay reaches the limit: the holdings tab shows it (the screen refreshes itself).
  await page.goto('/#/position/position?tab=holdings');
  const row = page.locator(`[data-testid="position-row-${order.id}"][data-status="holding"]`);
  await expect(row).toBeVisible({ timeout: Math.max(0, plan.fillWallMs - Date.now()) + 20_000 });
  const detail = await call<{ status: string; openPriceMinor: number }>(
    'trade/orderDetail',
    { orderId: order.id },
    m.token,
  );
  expect(detail.data).toMatchObject({ status: 'holding', openPriceMinor: plan.limitMinor });
  await expect(page.getByTestId(`position-liq-${order.id}`)).not.toHaveText('--');
  await shot(page, 'rules-02-limit-filled');
});

test('a 10× long is liquidated by a falling replay and the member sees why', async ({ page }) => {
  test.setTimeout(600_000); // may wait ~5 min for the next continuous session
  const plan = await planFall(oracle, call);
  const m = await member(page, call, creds, plan.depositMinor);
  await placeLong(page, plan.symbol, null);
  const list = async (tab: 'holdings' | 'terminated') =>
    (
      await call<{ items: Array<{ id: number; symbol: string; closeReason: string | null }> }>(
        'trade/orders',
        { tab, page: 1, pageSize: 50 },
        m.token,
      )
    ).data.items;
  const terminated = () => list('terminated');
  let orderId = 0;
  await expect
    .poll(
      async () =>
        (orderId =
          [...(await list('holdings')), ...(await terminated())].find((o) => o.symbol === plan.symbol)?.id ??
          0),
      { timeout: 10_000 },
    )
    .toBeGreaterThan(0);
  expect(Date.now() - plan.decidedWallMs, 'the order was in within the planned window').toBeLessThan(
    PLACE_S * 1000,
  );

  // While it holds (the plan leaves it some seconds): the liquidation price on its row and the
  // margin-call banner — it opened a few ticks above 110 %, under the 130 % call threshold.
  await page.goto('/#/position/position?tab=holdings');
  await expect(page.getByTestId('risk-banner')).toBeVisible();
  if (plan.liquidationWallMs - Date.now() > 10_000) {
    await expect(page.getByTestId(`position-liq-${orderId}`)).not.toHaveText('--');
    await expect(page.getByTestId('risk-margin-call')).toBeVisible();
    await shot(page, 'rules-03-margin-call');
  }

  // The replay falls through the liquidation price: closed at market, and the member is told why.
  await expect(page.getByTestId(`risk-liquidation-${orderId}`)).toBeVisible({
    timeout: Math.max(0, plan.liquidationWallMs - Date.now()) + 25_000,
  });
  await expect(page.getByTestId(`position-row-${orderId}`)).toHaveCount(0);
  await shot(page, 'rules-04-liquidation-notice');
  expect((await terminated()).find((o) => o.id === orderId)?.closeReason).toBe('liquidation');
  await page.getByTestId('tab-terminated').click();
  await expect(page.getByTestId(`position-reason-${orderId}`)).toHaveText(/強制平倉|liquidation/i);
  await page.goto(`/#/position/positionDetail?id=${orderId}`);
  await expect(page.getByTestId('pd-close-reason')).toHaveText(/強制平倉|liquidation/i);
  await expect(page.getByTestId('pd-liquidation-why')).toContainText('110.00%');
  await page.getByTestId('pd-liquidation-why').scrollIntoViewIfNeeded();
  await shot(page, 'rules-05-liquidated-detail');

  const events = await call<{ items: Array<{ kind: string; orderId: number | null; ratioBps: number }> }>(
    'risk/events',
    { page: 1, pageSize: 20 },
    m.token,
  );
  // The liquidation comes with the open margin call before it and the call's clearing after it
  // (the price may have crossed the call threshold more than once before).
  const kinds = events.data.items.map((e) => e.kind).reverse();
  const at = kinds.indexOf('liquidation');
  expect(kinds.filter((k) => k === 'liquidation')).toHaveLength(1);
  expect(kinds[at - 1]).toBe('marginCall');
  expect(kinds[at + 1]).toBe('marginCallCleared');
  const liq = events.data.items.find((e) => e.kind === 'liquidation')!;
  expect(liq.orderId).toBe(orderId);
  expect(liq.ratioBps).toBeLessThan(11_000);
  const rec = await call<{ clean: boolean }>('admin/reconcile', {}, m.operatorToken);
  expect(rec.data.clean).toBe(true);
});
