/**
 * Screenshots of the account risk model at 390×844 in Chromium, tw and en, into OUT (default
 * /tmp/risk-shots): the positions screen with cash holdings (1×: liquidation price "--") beside a
 * margined position, the ratio counting funds frozen for a resting order, the order ticket
 * refusing an order below the line (the ratio after it), a margin call's banner and notice with
 * its deadline and order of sales, and the notices of a member called, then sold below
 * maintenance (each notice before the sale). Build the client first (`npx vite build`), then
 * `PORT=3206 npx tsx scripts/account-risk-screenshots.ts`.
 *
 * It runs the server in-process on the integration harness (PGlite in memory, the manual market
 * clock at 10:00 of replayed 2025-04-14, when 2330 falls from about 895 to 865).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright';
import { openCosts } from '../contract/market-rules';
import { requiredEquityMinor } from '../contract/risk';
import { idem, startHarness } from '../tests/integration/harness';
import { advanceMarket } from '../tests/integration/trading-support';
import { openScreens } from './support/screens';

const OUT = process.env.OUT ?? '/tmp/risk-shots';
const PORT = Number(process.env.PORT ?? 3206);

async function main() {
  mkdirSync(OUT, { recursive: true });
  const h = await startHarness({ importSymbols: ['2330', '2317', '2409', '0050'] });
  const ok = async (name: Parameters<typeof h.call>[0], body: unknown, token: string) => {
    const r = await h.call(name, body, token, idem());
    if (r.body.status !== 1) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const order = (o: Record<string, unknown>) => ({
    symbol: '2330',
    side: 'long',
    orderType: 'market',
    lots: 1,
    leverage: 1,
    ...o,
  });
  const q = () => h.feed.quote('2330')!;

  // A: cash holdings (2409 50 lots and 2317 at 1×) beside a 2× long of 2330.
  const a = await h.fundedMember('0911000001', 200_000_000);
  await ok('trade/placeOrder', order({ symbol: '2409', lots: 50 }), a);
  await ok('trade/placeOrder', order({ symbol: '2317' }), a);
  await ok('trade/placeOrder', order({ leverage: 2 }), a);

  // B: the 2330 sequence: 1 lot 2× at market, a resting 5× buy 3 % below it.
  const b = await h.fundedMember('0911000002', 100_000_000);
  await ok('trade/placeOrder', order({ leverage: 2 }), b);
  const limit = Math.floor((q().bidMinor * 0.97) / 100) * 100;
  await ok('trade/placeOrder', order({ orderType: 'limit', priceMinor: limit, leverage: 5 }), b);

  // C: a 10× long at 133 %: the afternoon's fall calls it; D: at 112 %, the fall sells it at once.
  const cost = openCosts({ priceMinor: q().askMinor, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
  const at = (bps: number) => cost.feeMinor + cost.taxMinor + requiredEquityMinor(cost.marginMinor, bps);
  const c = await h.fundedMember('0911000003', at(13_300));
  await ok('trade/placeOrder', order({ leverage: 10 }), c);
  const d = await h.fundedMember('0911000004', at(13_000));
  await ok('trade/placeOrder', order({ leverage: 10 }), d);
  // Let the replay fall until C is called and D, further down, is sold.
  const sold = async () =>
    (await h.call('risk/events', { page: 1, pageSize: 10 }, d)).body.data.items.some(
      (e: { kind: string }) => e.kind === 'liquidation',
    );
  for (let i = 0; i < 240; i++) {
    await advanceMarket(h, 60_000);
    await h.risk.idle();
    if ((await h.call('risk/summary', {}, c)).body.data.marginCallActive && (await sold())) break;
  }

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT });
  const A = { token: a, account: '0911000001' };
  const B = { token: b, account: '0911000002' };
  const C = { token: c, account: '0911000003' };
  const D = { token: d, account: '0911000004' };
  const myAccountTab = (lang: 'tw' | 'en') => async (p: Page) => {
    await p
      .getByText(lang === 'tw' ? '帳戶通知' : 'My account')
      .first()
      .click();
    await p.waitForTimeout(500);
  };
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(A, lang, '/position/position', 'cash-holdings');
    await screens.shot(B, lang, '/position/position', 'frozen-in-ratio');
    await screens.shot(B, lang, '/market/marketDetail?symbol=2330', 'ticket-below-line', async (p) => {
      await p.getByTestId('leverage-5').click();
      await p.getByTestId('order-below-line').scrollIntoViewIfNeeded();
      await p.waitForTimeout(300);
    });
    await screens.shot(C, lang, '/position/position', 'margin-call-banner');
    await screens.shot(C, lang, '/home/notice?tab=account', 'margin-call-notice', myAccountTab(lang));
    await screens.shot(D, lang, '/home/notice?tab=account', 'gap-sale-notices', myAccountTab(lang));
  }
  await screens.close();
  await h.close();
}

await main();
