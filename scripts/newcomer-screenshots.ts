/**
 * Screenshots of what a new member reads first, at 390×844 in tw and en, from the built client
 * (`npx vite build` first) served by an in-process server on the integration harness (replayed
 * session at 10:00, manual clock): home with the TAIEX and its basis, the member centre, fund
 * records' tabs, the 1-minute and day charts, subscriptions, the ex-dividend calendar, copy trading
 * on a fresh install (no mentor: the empty state, the application with progress, the id-less
 * routes), then with a mentor approved and one order copied (the positions' copy tag).
 *
 * Run: SHOT_PORT=3306 SHOT_OUT=/tmp/ux-english-shots npx tsx scripts/newcomer-screenshots.ts
 */
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright';
import { users } from '../server/db/schema';
import { idem, startHarness } from '../tests/integration/harness';
import { ipoTestSymbols } from '../tests/integration/support/ipo';
import { openScreens } from './support/screens';

const PORT = Number(process.env.SHOT_PORT ?? 3306);
const OUT = process.env.SHOT_OUT ?? '/tmp/ux-english-shots';
const DAY_MS = 86_400_000;

async function main(): Promise<void> {
  const h = await startHarness({ importSymbols: await ipoTestSymbols() });
  await h.ipo.run();
  const call = async (name: Parameters<typeof h.call>[0], body: unknown, token: string, headers = {}) => {
    const r = await h.call(name, body, token, headers);
    if (r.body.status !== 1) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const op = await h.operatorToken();
  const follower = await h.fundedMember('0987654321', 100_000_000);
  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT, settleMs: 500 });
  const ME = { token: follower, account: '0987654321' };
  const only = process.env.SHOTS?.split(',');
  const want = (name: string) => !only || only.includes(name);
  const period = (p: string) => async (page: Page) => {
    await page.getByTestId(`period-${p}`).click();
    await page.getByTestId('kline-chart').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await page.waitForTimeout(1_500);
  };

  const fresh: Array<[string, string, string | undefined, ((p: Page) => Promise<void>)?]> = [
    ['home', '/home/index', 'home-index'],
    ['usercenter', '/user/usercenter', 'uc-total'],
    ['funds', '/user/FundingDetails', undefined],
    ['chart-1m', '/market/marketDetail?symbol=2330', 'kline-chart', period('1m')],
    ['chart-1d', '/market/marketDetail?symbol=2330', 'kline-chart', period('1d')],
    ['subscribe', '/market/subscribe?tab=upcoming', undefined],
    ['subscribe-open', '/market/subscribe?tab=open', undefined],
    ['dividend', '/common/dividend', undefined],
    ['gdindex-empty', '/gdindex/gdindex', 'gd-empty'],
    ['mentorApply', '/gdindex/mentorApply', 'gd-apply'],
    ['gdList-noid', '/gdindex/gdList', undefined],
    ['dsFllow-noid', '/gdindex/dsFllow', undefined],
    ['dsFllowRecord-noid', '/gdindex/dsFllowRecord', undefined],
  ];
  for (const lang of ['tw', 'en'] as const)
    for (const [name, hash, ready, act] of fresh)
      if (want(name)) await screens.shot(ME, lang, hash, name, act, ready ? { ready } : {});

  // A mentor approved, followed, one order copied: the positions' copy tag.
  const mentor = await h.fundedMember('0912345678', 100_000_000);
  await h.database.db
    .update(users)
    .set({ createdAt: new Date(h.wall.now - 60 * DAY_MS) })
    .where(eq(users.id, await h.userId('0912345678')));
  for (let i = 0; i < 5; i++) {
    const o = await call(
      'trade/placeOrder',
      { symbol: '2317', side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      mentor,
    );
    await call('trade/closePosition', { orderId: o.id }, mentor);
  }
  const m = await call('mentor/apply', {}, mentor);
  await call('admin/approveMentor', { id: m.id }, op);
  await call('follow/start', { mentorId: m.id, amountMinor: 50_000_000, days: 30 }, follower, idem());
  await call(
    'trade/placeOrder',
    { symbol: '2317', side: 'long', orderType: 'market', lots: 10, leverage: 10 },
    mentor,
  );
  await h.copyTrading.runOnce();
  await call(
    'trade/placeOrder',
    { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 5 },
    follower,
  );
  const later: Array<[string, string, string | undefined]> = [
    ['positions-copy', '/position/position', undefined],
    ['gdindex', '/gdindex/gdindex', 'gd-list'],
    ['gdList-noid-followed', '/gdindex/gdList', undefined],
    ['dsFllowRecord-noid-followed', '/gdindex/dsFllowRecord', undefined],
  ];
  for (const lang of ['tw', 'en'] as const)
    for (const [name, hash, ready] of later)
      if (want(name)) await screens.shot(ME, lang, hash, name, undefined, ready ? { ready } : {});
  await screens.close();
  await h.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
