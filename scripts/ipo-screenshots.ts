/**
 * Screenshots of the public-subscription screens at 390×844 in Chromium, tw and en, into
 * docs/screenshots/ipo-*.png. Build the client first (`npx vite build`), then
 * `npx tsx scripts/ipo-screenshots.ts`.
 *
 * It starts the server in-process on the integration harness (PGlite in memory, the manual market
 * clock at 10:00 of replayed 2025-04-14, a few instruments and the real announcements of a few
 * codes), creates two demonstration offerings of 6722 輝創 at NT$40 with 2 and 3 units, has four
 * members (the screenshot member among them) apply to both, and moves the clock: apply day →
 * draw day (the draw with its browser check) → listing day (records, and the holding).
 */
import { chromium, type Page } from 'playwright';
import { REPLAY_DAY_MS } from '../server/market/clock';
import { createOffering } from '../server/modules/ipo/schedule';
import { startHarness, TEST_SYMBOLS, idem } from '../tests/integration/harness';

const OUT = 'docs/screenshots';
const PORT = 4390;
const SYMBOLS = [...TEST_SYMBOLS, '3037', '8112', '4749', '6722', '3543', '6949'];

async function main() {
  const h = await startHarness({ importSymbols: SYMBOLS });
  const today = h.ipo.calendar.today();
  const demo = async (source: string, units: number) =>
    createOffering(h.database.db, {
      source,
      symbol: '6722',
      name: '輝創',
      marketType: '初上市',
      priceMinor: 4_000,
      sharesOffered: units * 1000,
      sharesPerApplication: 1000,
      applyStartDay: today,
      realApplyStart: '2026-01-06',
      realDrawDate: '2026-01-12',
    });
  const a = await demo('demo:a', 2);
  const b = await demo('demo:b', 3);
  const me = '0912345678';
  const tokens: string[] = [];
  for (const account of [me, '0912000001', '0912000002', '0912000003']) {
    const token = await h.fundedMember(account, 50_000_000);
    tokens.push(token);
    for (const id of [a, b]) {
      const r = await h.call('ipo/apply', { offeringId: id }, token, idem());
      if (r.body.status !== 1) throw new Error(JSON.stringify(r.body));
    }
  }
  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const shot = async (lang: 'tw' | 'en', hash: string, name: string, act?: (p: Page) => Promise<void>) => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    await ctx.addInitScript(
      ([token, account, l]) => {
        localStorage.setItem('tokend', token!);
        localStorage.setItem('account', account!);
        localStorage.setItem('lang', l!);
      },
      [tokens[0]!, me, lang],
    );
    const page = await ctx.newPage();
    await page.goto(`http://127.0.0.1:${PORT}/#${hash}`);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(600);
    if (act) await act(page);
    await page.screenshot({ path: `${OUT}/ipo-${name}-${lang}.png` });
    await ctx.close();
  };
  const advance = async (days: number) => {
    h.wall.now += days * REPLAY_DAY_MS;
    h.feed.tick();
    await h.ipo.run();
  };
  for (const lang of ['tw', 'en'] as const) {
    await shot(lang, '/home/index', 'home');
    await shot(lang, '/market/subscribe?tab=open', 'list');
    await shot(lang, `/market/subscribeDetail?id=${a}`, 'detail');
  }
  await advance(4); // draw day
  const draw = async (id: number) => (await h.call('ipo/draw', { id }, tokens[0]!)).body.data;
  const [da, db] = [await draw(a), await draw(b)];
  const mine = async (id: number) =>
    (await h.call('ipo/detail', { id }, tokens[0]!)).body.data.application.applicationNo as string;
  const wonA = da.winners.includes(await mine(a));
  const wonB = db.winners.includes(await mine(b));
  console.log(`member won demo A: ${wonA}, demo B: ${wonB}`);
  const verify = async (p: Page) => {
    await p.getByTestId('ipo-verify').click();
    await p.getByTestId('ipo-verdict').waitFor();
    await p.getByTestId('ipo-draw').scrollIntoViewIfNeeded();
  };
  for (const lang of ['tw', 'en'] as const) {
    await shot(lang, `/market/subscribeDetail?id=${wonA ? a : b}`, 'drawn-won', verify);
    if (!wonA || !wonB) await shot(lang, `/market/subscribeDetail?id=${wonA ? b : a}`, 'drawn-lost', verify);
  }
  await advance(5); // listing day
  for (const lang of ['tw', 'en'] as const) {
    await shot(lang, '/market/subscribeRecord', 'records');
    await shot(lang, '/position/position', 'holdings');
  }
  await browser.close();
  await h.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
