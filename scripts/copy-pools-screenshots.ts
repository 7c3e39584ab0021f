/**
 * Screenshots of copy trading's pools at 390×844 in tw and en, from the built client (`npx vite
 * build` first) served by an in-process server on the test harness (replayed session at 10:00):
 * the follow form with the smallest amount that would have copied the mentor's recent orders, a
 * copy closed by the risk monitor's liquidation (and its position's close reason), a copy closed by
 * hand with its P&L and share, the skip notice, the mentor list's empty state and the mentor
 * application with its criteria. Data made through the API (the liquidation through the risk
 * monitor on a marked feed, as tests/integration/copy-trading.test.ts does).
 *
 * Run: npx tsx scripts/copy-pools-screenshots.ts   (SHOT_PORT, default 3202; SHOT_DIR, default
 * /tmp/copy-shots)
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright';
import { and, eq } from 'drizzle-orm';
import { followCopies, users } from '../server/db/schema';
import { createRiskMonitor } from '../server/modules/risk/monitor';
import type { MarketFeed } from '../server/market/feed';
import { idem, startHarness } from '../tests/integration/harness';
import { advanceMarket } from '../tests/integration/trading-support';
import { openScreens, type ScreenMember } from './support/screens';

const PORT = Number(process.env.SHOT_PORT ?? 3202);
const DIR = process.env.SHOT_DIR ?? '/tmp/copy-shots';
const DAY_MS = 86_400_000;
const NT = 100;

async function main(): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const h = await startHarness({ marketSeed: 1 });
  const call = async (name: Parameters<typeof h.call>[0], body: unknown, token: string, headers = {}) => {
    const r = await h.call(name, body, token, headers);
    if (r.body.status !== 1) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const op = await h.operatorToken();
  const mentor = await h.fundedMember('0912345678', 1_000_000 * NT);
  await h.database.db
    .update(users)
    .set({ createdAt: new Date(h.wall.now - 60 * DAY_MS) })
    .where(eq(users.id, await h.userId('0912345678')));
  for (let i = 0; i < 5; i++) {
    const o = await call(
      'trade/placeOrder',
      { symbol: '2317', side: 'long', orderType: 'market', lots: 1 + i, leverage: 10 },
      mentor,
    );
    await call('trade/closePosition', { orderId: o.id }, mentor, idem());
  }
  const m = await call('mentor/apply', {}, mentor);
  await call('admin/approveMentor', { id: m.id }, op);
  await call('admin/mentorSettings', { id: m.id, minFollowMinor: 10_000 * NT, profitShareBps: 2_000 }, op);

  // F follows NT$500,000 and closes a copy by hand; S follows NT$20,000 (too small: skipped, with
  // notices); G puts its whole wallet (NT$120,000) into a follow whose copy gets liquidated.
  const F = await h.fundedMember('0987654321', 600_000 * NT);
  const S = await h.fundedMember('0987000001', 30_000 * NT);
  const G = await h.fundedMember('0987000002', 120_000 * NT);
  const fF = await call('follow/start', { mentorId: m.id, amountMinor: 500_000 * NT, days: 30 }, F, idem());
  const fS = await call('follow/start', { mentorId: m.id, amountMinor: 20_000 * NT, days: 30 }, S, idem());
  const fG = await call('follow/start', { mentorId: m.id, amountMinor: 120_000 * NT, days: 30 }, G, idem());
  const short = await call(
    'trade/placeOrder',
    { symbol: '2330', side: 'short', orderType: 'market', lots: 2, leverage: 10 },
    mentor,
  );
  const long = await call(
    'trade/placeOrder',
    { symbol: '2317', side: 'long', orderType: 'market', lots: 10, leverage: 10 },
    mentor,
  );
  await h.copyTrading.runOnce();
  const copyOf = async (followId: number, mentorOrderId: number) =>
    (
      await h.database.db
        .select()
        .from(followCopies)
        .where(and(eq(followCopies.followId, followId), eq(followCopies.mentorOrderId, mentorOrderId)))
    )[0]!;
  // G's copy of the 2317 long, liquidated when its pool cannot cover a 90 % fall.
  const gCopy = await copyOf(fG.id, long.id);
  const quote = h.feed.quote('2317')!;
  const crashed = {
    ...h.feed,
    quote: (s: string) => {
      const q = h.feed.quote(s);
      return q && s === '2317' ? { ...q, lastMinor: Math.floor(quote.lastMinor * 0.1) } : q;
    },
  } as MarketFeed;
  const monitor = createRiskMonitor({
    db: h.database.db,
    feed: crashed,
    closer: h.trading,
    thresholds: { marginCallBps: h.config.marginCallBps, maintenanceBps: h.config.maintenanceBps },
  });
  await monitor.evaluate(await h.userId('0987000002'));
  // F closes the 2330 short's copy by hand later in the day.
  await advanceMarket(h, 150 * 60_000);
  const fCopy = await copyOf(fF.id, short.id);
  await call('trade/closePosition', { orderId: fCopy.orderId }, F, idem());
  await h.copyTrading.runOnce();
  // A member of 12 days with two closed trades: the application shows the criteria half met.
  const fresh = await h.fundedMember('0955555555', 200_000 * NT);
  await h.database.db
    .update(users)
    .set({ createdAt: new Date(h.wall.now - 12 * DAY_MS) })
    .where(eq(users.id, await h.userId('0955555555')));
  for (let i = 0; i < 2; i++) {
    const o = await call(
      'trade/placeOrder',
      { symbol: '0050', side: 'long', orderType: 'market', lots: 1, leverage: 2 },
      fresh,
    );
    await call('trade/closePosition', { orderId: o.id }, fresh, idem());
  }

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: DIR, settleMs: 500 });
  const asF = { token: F, account: '0987654321' };
  const asS = { token: S, account: '0987000001' };
  const asG = { token: G, account: '0987000002' };
  const asFresh = { token: fresh, account: '0955555555' };
  const noticeId = (await call('notice/list', { tab: 'account' }, S)).items[0].id as string;
  const shots: Array<{ name: string; member: ScreenMember; route: string; testId: string }> = [
    {
      name: 'form-minimum',
      member: asF,
      route: `/gdindex/dsFllow?id=${m.id}`,
      testId: 'ds-minimum',
    },
    {
      name: 'records-liquidation',
      member: asG,
      route: `/gdindex/dsFllowRecord?id=${fG.id}`,
      testId: 'ds-record-list',
    },
    {
      name: 'position-liquidation',
      member: asG,
      route: `/position/positionDetail?id=${gCopy.orderId}`,
      testId: 'pd-close-reason',
    },
    {
      name: 'records-by-hand',
      member: asF,
      route: '/gdindex/dsFllowRecord',
      testId: 'ds-record-list',
    },
    {
      name: 'positions-copy-tag',
      member: asF,
      route: '/position/position?tab=holdings',
      testId: `copy-tag-${(await copyOf(fF.id, long.id)).orderId}`,
    },
    {
      name: 'positions-closed-copy',
      member: asG,
      route: '/position/position?tab=terminated',
      testId: `copy-tag-${gCopy.orderId}`,
    },
    {
      name: 'follows',
      member: asF,
      route: '/gdindex/dsFllowInfo',
      testId: `ds-follow-${fF.id}`,
    },
    {
      name: 'skip-notice',
      member: asS,
      route: `/home/noticeDetail?id=${noticeId}`,
      testId: 'notice-detail',
    },
    {
      name: 'skip-notices',
      member: asS,
      route: '/home/notice?tab=account',
      testId: 'notice-list-account',
    },
    {
      name: 'skip-records',
      member: asS,
      route: `/gdindex/dsFllowRecord?id=${fS.id}`,
      testId: 'ds-record-list',
    },
    {
      name: 'mentors-empty',
      member: asFresh,
      route: '/gdindex/gdindex?level=senior',
      testId: 'gd-empty',
    },
    {
      name: 'mentor-apply',
      member: asFresh,
      route: '/gdindex/mentorApply',
      testId: 'gd-apply',
    },
  ];
  // The form with an amount under the minimum, as seen and as a whole page.
  const fillAmount = async (p: Page) => {
    await p.getByTestId('ds-amount').locator('input').fill('200000');
    await p.waitForTimeout(500);
  };
  for (const lang of ['tw', 'en'] as const) {
    for (const s of shots) {
      const act = s.name === 'form-minimum' ? fillAmount : undefined;
      await screens.shot(s.member, lang, s.route, s.name, act, { ready: s.testId });
      if (act)
        await screens.shot(s.member, lang, s.route, `${s.name}-full`, act, {
          ready: s.testId,
          fullPage: true,
        });
    }
  }
  await screens.close();
  await h.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
