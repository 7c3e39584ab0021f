/**
 * Screenshots of the protocol-bidding screen (/market/bidding) at 390×844 in Chromium, tw and en,
 * into docs/screenshots/bidding-*.png. Build the client first (`npx vite build`), then
 * `npx tsx scripts/bidding-screenshots.ts`.
 *
 * It starts the server in-process on the integration harness (PGlite in memory, the manual market
 * clock at 09:30), creates an auction of 2330, a block-trade offering of 2330 at its last price and
 * a placement of 2317 through admin/saveOffering; the screenshot member (verified, funded) bids
 * once and applies to the block trade and the placement; then the four tabs, the home shortcut and
 * the positions tabs auction and placement, and the block-trade password screen (one set: "change").
 */
import { startHarness, idem } from '../tests/integration/harness';
import { openScreens } from './support/screens';

const OUT = 'docs/screenshots';
const PORT = 4392;

async function main() {
  const h = await startHarness();
  const op = await h.operatorToken();
  const must = async (name: Parameters<typeof h.call>[0], body: unknown, token: string, key = false) => {
    const r = await h.call(name, body, token, key ? idem() : {});
    if (r.body.status !== 1) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const today = h.ipo.calendar.today();
  const q = h.feed.quote('2330')!;
  const auction = await must(
    'admin/saveOffering',
    {
      kind: 'auction',
      symbol: '2330',
      name: '台積電',
      priceMinor: 80_000,
      lots: 200,
      depositBps: 2_000,
      startDay: today,
      listingDay: today + 5,
    },
    op,
  );
  const bt = await must(
    'admin/saveOffering',
    {
      kind: 'blockTrade',
      symbol: '2330',
      name: '台積電',
      priceMinor: q.lastMinor,
      lots: 2_000,
      startDay: today,
      endDay: today + 1,
      listingDay: today + 2,
    },
    op,
  );
  const pl = await must(
    'admin/saveOffering',
    {
      kind: 'placement',
      symbol: '2317',
      name: '鴻海',
      priceMinor: 15_000,
      lots: 50,
      startDay: today,
      endDay: today + 1,
      listingDay: today + 2,
    },
    op,
  );
  const me = await h.withdrawer('0912345678', 5_000_000_000);
  await must('auction/bid', { offeringId: auction.id, priceMinor: 85_000, lots: 5 }, me.token, true);
  await must('user/setBlockTradePassword', { password: '246810', confirmPassword: '246810' }, me.token);
  await must(
    'blockTrade/apply',
    { offeringId: bt.id, priceMinor: q.lastMinor, lots: 20, password: '246810' },
    me.token,
    true,
  );
  const pa = await must('placement/apply', { offeringId: pl.id, lots: 3 }, me.token, true);
  await must('admin/approvePrimary', { id: pa.id }, op);

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT, settleMs: 600 });
  const ME = { token: me.token, account: '0912345678' };
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(ME, lang, '/home/index', 'bidding-home');
    await screens.shot(ME, lang, '/market/bidding?tab=auction', 'bidding-auction');
    await screens.shot(ME, lang, '/market/bidding?tab=blockTrade', 'bidding-block-trade');
    await screens.shot(ME, lang, '/market/bidding?tab=placement', 'bidding-placement');
    await screens.shot(ME, lang, '/market/bidding?tab=records', 'bidding-records');
    await screens.shot(ME, lang, '/user/blockTradePassword', 'bidding-password');
    await screens.shot(ME, lang, '/position/position?tab=auction', 'bidding-position-auction');
    await screens.shot(ME, lang, '/position/position?tab=placement', 'bidding-position-placement');
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
