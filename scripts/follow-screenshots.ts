/**
 * Screenshots of the follow-order screens (/gdindex/*) at 390×844 in tw and en, from the built
 * client (`npm run build` first) served by an in-process server on the test harness (replayed
 * session at 10:00, three instruments). Data made through the API: a mentor with five round trips,
 * applied and approved by the operator; a follower following NT$500,000, one mentor order copied
 * and one skipped while paused; a second applicant under review for the operator console's
 * mentor queue. Writes docs/screenshots/follow-*-{tw,en}.png and admin-mentors-{tw,en}.png (the
 * console at desktop width, 1280×720).
 *
 * Run: npx tsx scripts/follow-screenshots.ts
 */
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright';
import { users } from '../server/db/schema';
import { OPERATOR, idem, startHarness } from '../tests/integration/harness';
import { openScreens } from './support/screens';

const PORT = Number(process.env.SHOT_PORT ?? 3217);
const DAY_MS = 86_400_000;

async function main(): Promise<void> {
  const h = await startHarness();
  const call = async (name: Parameters<typeof h.call>[0], body: unknown, token: string, headers = {}) => {
    const r = await h.call(name, body, token, headers);
    if (r.body.status !== 1) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const op = await h.operatorToken();
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
  const follower = await h.fundedMember('0987654321', 60_000_000);
  const f = await call(
    'follow/start',
    { mentorId: m.id, amountMinor: 50_000_000, days: 30 },
    follower,
    idem(),
  );
  await call(
    'trade/placeOrder',
    { symbol: '2317', side: 'long', orderType: 'market', lots: 10, leverage: 10 },
    mentor,
  );
  await h.copyTrading.runOnce();
  await call('follow/pause', { followId: f.id }, follower);
  await call(
    'trade/placeOrder',
    { symbol: '2330', side: 'long', orderType: 'market', lots: 2, leverage: 10 },
    mentor,
  );
  await h.copyTrading.runOnce();
  await call('follow/resume', { followId: f.id }, follower);

  // A second applicant, under review, for the operator console's mentor queue.
  const applicant = await h.fundedMember('0911222333', 50_000_000);
  await h.database.db
    .update(users)
    .set({ createdAt: new Date(h.wall.now - 45 * DAY_MS) })
    .where(eq(users.id, await h.userId('0911222333')));
  for (let i = 0; i < 6; i++) {
    const o = await call(
      'trade/placeOrder',
      { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 5 },
      applicant,
    );
    await call('trade/closePosition', { orderId: o.id }, applicant);
  }
  await call('mentor/apply', {}, applicant);

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: 'docs/screenshots', settleMs: 300 });
  const FOLLOWER = { token: follower, account: '0987654321' };
  const shots: Array<[string, string, string]> = [
    ['gdindex', `/gdindex/gdindex?level=junior`, 'gd-list'],
    ['gdList', `/gdindex/gdList?id=${m.id}`, 'gd-info'],
    ['dsFllow', `/gdindex/dsFllow?id=${m.id}`, 'ds-form'],
    ['dsFllowInfo', `/gdindex/dsFllowInfo`, `ds-follow-${f.id}`],
    ['dsFllowRecord', `/gdindex/dsFllowRecord?id=${f.id}`, 'ds-record-list'],
  ];
  const fillAmount = async (p: Page) => {
    await p.getByTestId('ds-amount').locator('input').fill('200000');
    await p.waitForTimeout(300);
  };
  for (const lang of ['tw', 'en'] as const) {
    for (const [name, hash, testId] of shots) {
      const act = name === 'dsFllow' ? fillAmount : undefined;
      await screens.shot(FOLLOWER, lang, hash, `follow-${name}`, act, { ready: testId });
    }
    // The operator console's mentor queue (desktop width).
    await screens.shot(
      { token: op, account: OPERATOR.account },
      lang,
      'mentors',
      'admin-mentors',
      undefined,
      {
        console: true,
        viewport: { width: 1280, height: 720 },
        ready: /^mentor-row-/,
      },
    );
  }
  await screens.close();
  await h.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
