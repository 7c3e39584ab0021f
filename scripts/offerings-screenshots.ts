/**
 * Screenshots of the console's Offerings tab at 390×844 in Chromium, tw and en, into
 * docs/screenshots/admin-offerings-*.png. Build the client first (`npx vite build`), then
 * `npx tsx scripts/offerings-screenshots.ts`.
 *
 * It starts the server in-process on the integration harness (PGlite in memory, the manual market
 * clock), creates an auction of 2330 through admin/saveOffering with four members' bids and runs
 * its allocation (the listing price shows), a block-trade offering with one pending application,
 * then opens admin.html#offerings as the operator: the auction list, the new-offering form, and
 * the block-trade list with the review queue.
 */
import { REPLAY_DAY_MS } from '../server/market/clock';
import { OPERATOR, startHarness, idem } from '../tests/integration/harness';
import { openScreens } from './support/screens';

const OUT = 'docs/screenshots';
const PORT = 4391;

async function main() {
  const h = await startHarness();
  const op = await h.operatorToken();
  const must = async (name: Parameters<typeof h.call>[0], body: unknown, token: string, key = false) => {
    const r = await h.call(name, body, token, key ? idem() : {});
    if (r.body.status !== 1) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const today = h.ipo.calendar.today();
  const auction = await must(
    'admin/saveOffering',
    {
      kind: 'auction',
      symbol: '2330',
      name: '台積電',
      priceMinor: 4_600,
      lots: 20,
      depositBps: 2_000,
      startDay: today,
      listingDay: today + 5,
    },
    op,
  );
  for (const [i, price] of [7_000, 6_600, 6_000, 5_200].entries()) {
    const token = await h.fundedMember(`091300000${i}`, 20_000_000);
    await must('auction/bid', { offeringId: auction.id, priceMinor: price, lots: 2 }, token, true);
  }
  await must(
    'admin/saveOffering',
    {
      kind: 'auction',
      symbol: '2317',
      name: '鴻海',
      priceMinor: 10_000,
      lots: 100,
      depositBps: 1_500,
      startDay: today + 4,
      listingDay: today + 10,
    },
    op,
  );
  h.wall.now += 3 * REPLAY_DAY_MS;
  h.feed.tick();
  await h.ipo.run();
  const q = h.feed.quote('2330')!;
  const bt = await must(
    'admin/saveOffering',
    {
      kind: 'blockTrade',
      symbol: '2330',
      name: '台積電',
      priceMinor: q.lastMinor,
      lots: 100,
      startDay: h.ipo.calendar.today(),
      endDay: h.ipo.calendar.today() + 1,
      listingDay: h.ipo.calendar.today() + 2,
    },
    op,
  );
  const buyer = await h.fundedMember('0913999999', 5_000_000_000);
  await must('user/setBlockTradePassword', { password: '246810', confirmPassword: '246810' }, buyer);
  await must(
    'blockTrade/apply',
    { offeringId: bt.id, priceMinor: q.lastMinor, lots: 30, password: '246810' },
    buyer,
    true,
  );

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT, console: true, settleMs: 500 });
  const OP = { token: op, account: OPERATOR.account };
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(OP, lang, 'offerings', 'admin-offerings-auctions', (p) => p.waitForTimeout(300));
    await screens.shot(OP, lang, 'offerings', 'admin-offerings-form', async (p) => {
      await p.getByTestId('offering-new').click();
      await p.getByTestId('offering-form').waitFor();
      await p.waitForTimeout(300);
    });
    await screens.shot(OP, lang, 'offerings', 'admin-offerings-block-trades', async (p) => {
      await p.getByTestId('offering-kind-blockTrade').click();
      await p.waitForLoadState('networkidle');
      await p.getByTestId('primary-row-1').scrollIntoViewIfNeeded();
      await p.waitForTimeout(300);
    });
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
