/**
 * Trading by the rules in Chromium on the real server (manual market clock, MARKET_SEED 1),
 * issue 5 acceptance:
 * (a) a limit buy placed below the market waits as pending, fills when the replay reaches it, and
 *     shows in holdings;
 * (b) a 10× long is liquidated by a falling replay, and the member sees why (the margin-call
 *     banner, the liquidation notice, "forced liquidation" on the terminated position, the ratio
 *     against the threshold in its detail).
 *
 * The market clock stands still in continuous trading while the test reads the future from the
 * replay itself: it rebuilds, in this process, the session each instrument is replaying now
 * (server/market/replay.ts buildSession over the same seed data, the day named by the live
 * quote's `replayDate`), checks it against the live quote (same last price at the same market
 * time), and picks the instrument and price for which the rule must trigger within TRIGGER_MS of
 * market time: a limit one tick under the current ask that a later ask reaches; a deposit that
 * leaves a few ticks above maintenance where the next minutes fall further. The order goes in on
 * screen with the clock still, then the test moves the clock past the planned print
 * (POST /api/test/clock) and the screen shows the outcome. Nothing else on the server is changed.
 */
import { limitClassOf } from '../../contract/dated-rules';
import { loadEtfClasses } from '../../server/market/rule-classes';
import { randomInt } from 'node:crypto';
import { desc, eq, lte, and } from 'drizzle-orm';
import { expect, test, type Page } from '../support/e2e-test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openCosts, stepTicks, type InstrumentKind } from '../../contract/market-rules';
import { mulDivCeil, minorToDecimal } from '../../contract/money';
import { liquidationPriceMinor } from '../../contract/risk';
import type { Quote } from '../../contract/market';
import { openDatabase, type Database } from '../../server/db/client';
import { importMarketData } from '../../server/market/import';
import { dailyCandles } from '../../server/db/schema';
import { sessionStartMs } from '../../server/market/calendar';
import { bookAt, buildSession, lastTradeAt, type ReplaySession } from '../../server/market/replay';
import { dayReference, loadCorporateActions, replayDayOf } from '../../server/market/reference';
import { previousTradingDay } from '../../server/market/calendar';
import { depositApproved, httpApi, type HttpCall } from '../support/http-funding';
import { submitOrder } from '../support/confirm-above';
import { marketToContinuous, moveMarket } from '../support/market-clock';
import { e2eServer } from '../support/e2e-server';
import { firstRun } from '../support/first-run';

/** Market ms after the plan within which the rule must trigger. */
const TRIGGER_MS = 60 * 60_000;
const MARKET_SEED = 1;
const PASSWORD = 'abcd1234';

/** The replay as the server plays it, rebuilt from the same seed data (of the symbols asked for). */
class ReplayOracle {
  private sessions = new Map<string, ReplaySession>();
  private constructor(private readonly d: Database) {}

  static async load(symbols: string[]): Promise<ReplayOracle> {
    const d = await openDatabase('memory://');
    await importMarketData(d.db, { symbols });
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
  quotes: Quote[];
  /** Market time (epoch ms) the clock stands at. */
  marketMs: number;
  /** Market ms after 09:00 of the current session. */
  offsetMs: number;
  /** The replayed date. */
  date: string;
  oracle: ReplayOracle;
}

/**
 * The clock put (and held) in continuous trading with TRIGGER_MS and ten minutes more before the
 * closing call, the live quotes, and the oracle of their symbols.
 */
async function now(call: HttpCall): Promise<Now> {
  const clock = await marketToContinuous(e2eServer().baseURL, {
    minutesLeft: TRIGGER_MS / 60_000 + 10,
  });
  const list = await call<{ items: Quote[]; clock: { now: number; replayDate: string } }>('market/list', {
    page: 1,
    pageSize: 200,
  });
  expect(list.status).toBe(1);
  expect(list.data.clock.now, 'the clock stands still').toBe(clock.now);
  const date = list.data.clock.replayDate;
  const oracle = await ReplayOracle.load(list.data.items.map((q) => q.symbol));
  return {
    quotes: list.data.items,
    marketMs: clock.now,
    offsetMs: clock.now - sessionStartMs(date),
    date,
    oracle,
  };
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

/** The book now: that of the last print before the clock's offset (the feed prints offset < now). */
const bookNow = (s: ReplaySession, offsetMs: number) => {
  const i = lastTradeAt(s, offsetMs - 1);
  return i >= 0 ? { i, ...bookAt(s, i) } : null;
};

interface LimitPlan {
  symbol: string;
  kind: InstrumentKind;
  limitMinor: number;
  /** Market time (epoch ms) of the print whose ask reaches the limit. */
  fillMarketMs: number;
  /** Market time the plan was made at (the clock stands there until the test moves it). */
  decidedMarketMs: number;
}

/** (a): the instrument whose ask, one tick under the current one, a later ask reaches soonest. */
async function planLimit(call: HttpCall): Promise<LimitPlan> {
  const n = await now(call);
  const base = n.marketMs - n.offsetMs;
  const until = n.offsetMs + TRIGGER_MS;
  let best: LimitPlan | null = null;
  for (const q of n.quotes) {
    const s = await verified(n.oracle, q);
    const book = s && bookNow(s, n.offsetMs);
    if (!s || !book) continue;
    const limit = stepTicks(book.askMinor, -1, q.kind);
    if (limit < s.day.limitDownMinor) continue;
    for (const i of trades(s, n.offsetMs, until)) {
      if (s.offsets[i]! < n.offsetMs) continue;
      if (bookAt(s, i).askMinor <= limit) {
        const fillMarketMs = base + s.offsets[i]!;
        if (!best || fillMarketMs < best.fillMarketMs)
          best = {
            symbol: q.symbol,
            kind: q.kind,
            limitMinor: limit,
            fillMarketMs,
            decidedMarketMs: n.marketMs,
          };
        break;
      }
    }
  }
  await n.oracle.close();
  expect(best, 'some instrument reaches a limit under its ask within the window').not.toBeNull();
  return best!;
}

interface FallPlan {
  symbol: string;
  depositMinor: number;
  /** Market time (epoch ms) of the print at or under the liquidation price. */
  liquidationMarketMs: number;
  /** Market time of the symbol's next print, above the liquidation price (the margin call's). */
  nextPrintMarketMs: number;
  bufferTicks: number;
  decidedMarketMs: number;
}

/**
 * (b): the instrument and deposit for a 1-lot 10× long opened at market now (at the current ask):
 * equity `bufferTicks` ticks above maintenance at that fill, and a later last price at or under
 * its liquidation price within TRIGGER_MS.
 */
async function planFall(call: HttpCall): Promise<FallPlan> {
  const n = await now(call);
  const base = n.marketMs - n.offsetMs;
  const until = n.offsetMs + TRIGGER_MS;
  let best: FallPlan | null = null;
  for (const q of n.quotes) {
    const s = await verified(n.oracle, q);
    const book = s && bookNow(s, n.offsetMs);
    if (!s || !book) continue;
    const ask = book.askMinor;
    const cost = openCosts({ priceMinor: ask, lots: 1, leverage: 10, side: 'long', kind: q.kind });
    for (let k = 8; k >= 1; k--) {
      if (best && k < best.bufferTicks) break;
      const buffer = (stepTicks(ask, k, q.kind) - ask) * 1000;
      const deposit = cost.feeMinor + mulDivCeil(cost.marginMinor, 11_000, 10_000) + buffer;
      const liq =
        liquidationPriceMinor({
          side: 'long',
          openValueMinor: ask * 1000,
          shares: 1000,
          kind: q.kind,
          otherEquityMinor: deposit - cost.feeMinor - cost.taxMinor,
          usedMarginMinor: cost.marginMinor,
          maintenanceBps: 11_000,
        }) ?? 0;
      // Not liquidated at the price now nor at the next print (the margin call is seen there),
      // liquidated by a later one.
      if (s.prices[book.i]! <= liq) continue;
      let at: number | null = null;
      let next: number | null = null;
      for (const i of trades(s, n.offsetMs, until)) {
        if (s.offsets[i]! < n.offsetMs) continue;
        if (next === null) {
          if (s.prices[i]! <= liq) break;
          next = base + s.offsets[i]!;
        } else if (s.prices[i]! <= liq && base + s.offsets[i]! > next) {
          at = base + s.offsets[i]!;
          break;
        }
      }
      if (at === null || next === null) continue;
      if (!best || k > best.bufferTicks || at < best.liquidationMarketMs)
        best = {
          symbol: q.symbol,
          depositMinor: Math.max(deposit, 100_000),
          liquidationMarketMs: at,
          nextPrintMarketMs: next,
          bufferTicks: k,
          decidedMarketMs: n.marketMs,
        };
      break;
    }
  }
  await n.oracle.close();
  expect(best, 'some instrument falls through its liquidation price within the window').not.toBeNull();
  return best!;
}

/** Market time now (the clock stands still unless moved). */
async function marketNow(call: HttpCall): Promise<number> {
  return (await call<{ clock: { now: number } }>('market/list', { page: 1, pageSize: 1 })).data.clock.now;
}

/** A member registered over the API with `amountMinor` deposited and approved; logged in in `page`. */
async function member(page: Page, call: HttpCall, creds: ReturnType<typeof firstRun>, amountMinor: number) {
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
  await depositApproved(e2eServer().baseURL, reg.data.token, op.data.token, amountMinor);
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

let creds: ReturnType<typeof firstRun>;
let call: HttpCall;

test.beforeAll(async () => {
  creds = firstRun();
  call = httpApi(e2eServer().baseURL);
});

test('a limit buy below the market waits as pending, fills when the replay reaches it, shows in holdings', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const plan = await planLimit(call);
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
  expect(await marketNow(call), 'the order went in at the planned market time').toBe(plan.decidedMarketMs);
  await page.goto('/#/position/position?tab=orders');
  await expect(page.locator(`[data-testid="position-row-${order.id}"][data-status="pending"]`)).toBeVisible();
  await shot(page, 'rules-01-limit-pending');

  // Filled when the replay reaches the limit: the holdings tab shows it (the screen refreshes itself).
  await page.goto('/#/position/position?tab=holdings');
  await moveMarket(e2eServer().baseURL, {
    advanceMs: plan.fillMarketMs - plan.decidedMarketMs + 1_000,
  });
  const row = page.locator(`[data-testid="position-row-${order.id}"][data-status="holding"]`);
  await expect(row).toBeVisible({ timeout: 20_000 });
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
  test.setTimeout(240_000);
  const plan = await planFall(call);
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
  expect(await marketNow(call), 'the order went in at the planned market time').toBe(plan.decidedMarketMs);

  // While it holds: the liquidation price on its row and the margin-call banner — it opened a few
  // ticks above 110 %, under the 130 % call threshold (the risk monitor sees it at the next print).
  await page.goto('/#/position/position?tab=holdings');
  const baseUrl = e2eServer().baseURL;
  await moveMarket(baseUrl, { advanceMs: plan.nextPrintMarketMs - plan.decidedMarketMs + 1 });
  await expect(page.getByTestId('risk-banner')).toBeVisible();
  await expect(page.getByTestId(`position-liq-${orderId}`)).not.toHaveText('--');
  await expect(page.getByTestId('risk-margin-call')).toBeVisible();
  await shot(page, 'rules-03-margin-call');

  // The replay falls through the liquidation price: closed at market, and the member is told why.
  // To just after the print (the risk monitor evaluates the step's last price).
  await moveMarket(baseUrl, { advanceMs: plan.liquidationMarketMs - plan.nextPrintMarketMs });
  await expect(page.getByTestId(`risk-liquidation-${orderId}`)).toBeVisible({ timeout: 25_000 });
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
