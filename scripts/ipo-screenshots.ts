/**
 * Screenshots of the public-subscription screens at 390×844 in Chromium, tw and en, into
 * docs/screenshots/ipo-*.png (or the folder in OUT). Build the client first (`npx vite build`), then
 * `npx tsx scripts/ipo-screenshots.ts`.
 *
 * It starts the server in-process on the integration harness (PGlite in memory, the manual market
 * clock at 10:00 of replayed 2025-04-14) with every announced code and the window's comparables, so
 * the seeded offerings are priced on the replay (docs/adr/0004-ipo-offers-on-the-replay.md): the list,
 * the detail of a seasoned offering priced by the rule and of a first listing. It creates two
 * demonstration offerings of 3037 欣興 priced as its announcement prices it on the replay, with 2
 * and 3 units, has four members (the screenshot member among them) apply to both, and moves the
 * clock: apply day → draw day (the draw with its browser check) → listing day (records, and the
 * holding); then to 3037's own seeded offering (the announcement's discount beside the market).
 */
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright';
import { readIpoAnnouncements } from '../server/market/import';
import { ipoOfferings } from '../server/db/schema';
import { REPLAY_DAY_MS } from '../server/market/clock';
import { announcedClose, loadAnnouncementCloses, seasonedPrice } from '../server/modules/ipo/pricing';
import { createOffering } from '../server/modules/ipo/schedule';
import { startHarness, idem } from '../tests/integration/harness';
import { ipoTestSymbols } from '../tests/integration/support/ipo';
import { openScreens } from './support/screens';

const OUT = process.env.OUT ?? 'docs/screenshots';
const PORT = 4390;

async function main() {
  const h = await startHarness({ importSymbols: await ipoTestSymbols() });
  await h.ipo.run();
  const today = h.ipo.calendar.today();
  const ann = (await readIpoAnnouncements()).find((x) => x.code === '3037')!;
  const real = announcedClose(ann, await loadAnnouncementCloses(new Set(['3037'])));
  const price = seasonedPrice(ann, h.feed.closeBefore!('3037', today)!, real);
  const demo = async (source: string, units: number) =>
    createOffering(h.database.db, {
      source,
      symbol: '3037',
      name: '欣興',
      marketType: '上市增資',
      sharesOffered: units * 1000,
      sharesPerApplication: 1000,
      applyStartDay: today,
      realApplyStart: ann.applyStart,
      realDrawDate: ann.drawDate,
      ...price,
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
  const screens = await openScreens({ port: PORT, out: OUT, settleMs: 600 });
  const ME = { token: tokens[0]!, account: me };
  const advance = async (days: number) => {
    h.wall.now += days * REPLAY_DAY_MS;
    h.feed.tick();
    await h.ipo.run();
  };
  const seeded = async (pricing: 'rule' | 'listing') =>
    (
      await h.database.db
        .select()
        .from(ipoOfferings)
        .where(and(eq(ipoOfferings.pricing, pricing), eq(ipoOfferings.applyStartDay, today)))
    )[0] ?? (await h.database.db.select().from(ipoOfferings).where(eq(ipoOfferings.pricing, pricing)))[0]!;
  const [rule, listing] = [await seeded('rule'), await seeded('listing')];
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(ME, lang, '/home/index', 'ipo-home');
    await screens.shot(ME, lang, '/market/subscribe?tab=open', 'ipo-list');
    await screens.shot(ME, lang, '/market/subscribe?tab=upcoming', 'ipo-upcoming');
    await screens.shot(ME, lang, `/market/subscribeDetail?id=${a}`, 'ipo-detail');
    await screens.shot(ME, lang, `/market/subscribeDetail?id=${rule.id}`, 'ipo-detail-rule');
    await screens.shot(ME, lang, `/market/subscribeDetail?id=${listing.id}`, 'ipo-detail-listing');
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
    await screens.shot(ME, lang, `/market/subscribeDetail?id=${wonA ? a : b}`, 'ipo-drawn-won', verify);
    if (!wonA || !wonB)
      await screens.shot(ME, lang, `/market/subscribeDetail?id=${wonA ? b : a}`, 'ipo-drawn-lost', verify);
  }
  await advance(5); // listing day
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(ME, lang, '/market/subscribeRecord', 'ipo-records');
    await screens.shot(ME, lang, '/position/position', 'ipo-holdings');
  }
  // 3037's own seeded offering (round 1): the announcement's discount beside the replayed market.
  const ownRow = () =>
    h.database.db
      .select()
      .from(ipoOfferings)
      .where(and(eq(ipoOfferings.symbol, '3037'), eq(ipoOfferings.round, 1)));
  while (!(await ownRow()).length) await advance(20); // created once within the schedule's horizon
  const [own] = await ownRow();
  await advance(own!.applyStartDay - h.ipo.calendar.today());
  const d = (await h.call('ipo/detail', { id: own!.id }, tokens[0]!)).body.data.offering;
  console.log(
    `3037 on ${d.applyStart}: reference ${d.referenceMinor} (${d.referenceDate}), offer ${d.priceMinor}, market ${d.marketPriceMinor}`,
  );
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(ME, lang, '/market/subscribe?tab=open', 'ipo-list-3037');
    await screens.shot(ME, lang, `/market/subscribeDetail?id=${own!.id}`, 'ipo-detail-3037');
  }
  await screens.close();
  await h.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
