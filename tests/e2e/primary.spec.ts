/**
 * The primary market's journeys that span replayed days, in Chromium at 390×844 in tw and en; the
 * test moves the manual market clock a replayed day at a time (tests/support/market-clock.ts):
 *
 * - Public subscription (product-spec "new share subscription"): two funded members, one per
 *   language, apply on screen to an open seeded offering; the market clock runs its steps
 *   (deduction, draw, refund, listing: server/modules/ipo/service.ts). With the few applications of
 *   this server every qualified application wins, so each record reads "won", then "subscribed" on
 *   the listing day, and the shares are a long holding in the member's positions (1 lot at the
 *   offer price, no leverage).
 * - Auction, a bid lost and its deposit released: the operator opens a 10-lot auction of 2330
 *   (the per-bidder cap is 10 %: 1 lot each), ten members bid 1 lot above the minimum over the
 *   API, and the member bids 1 lot at the minimum on screen; allocation (the business day after
 *   the third bidding day, server/modules/primary/auction.ts) fills the ten higher bids, so the
 *   member's bid reads "not won" and the frozen deposit returns to available.
 * Screenshots: docs/screenshots/fast-{ipo-won,ipo-holding,auction-lost}-{tw,en}.png.
 */
import path from 'node:path';
import { expect, test, type Page } from '../support/e2e-test';
import { depositApproved, httpApi, type HttpCall } from '../support/http-funding';
import { tr, type Lang } from '../support/locales';
import { marketToAuctionHours, moveMarket } from '../support/market-clock';
import { logInPage, operatorToken, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('docs/screenshots');
/** Replayed days to the listing (at most ~10), each a move of the clock, plus the pages. */
const TEST_TIMEOUT_MS = 300_000;
/** Replayed days a step waits for at most (a subscription's draw and listing take fewer). */
const MAX_DAYS = 15;

interface Offering {
  id: number;
  symbol: string;
  applyEnd: string;
  listingDate: string;
  priceMinor: number;
  myStatus: string | null;
}
interface Application {
  offeringId: number;
  status: string;
  orderId: number | null;
}

/** The replayed date now (YYYY-MM-DD). */
async function replayDate(call: HttpCall): Promise<string> {
  const r = await call<{ clock: { replayDate: string } }>('market/list', { page: 1, pageSize: 1 });
  return r.data.clock.replayDate;
}

/** A funded member logged in on `page` in `lang`; returns its token. */
async function fundedMember(page: Page, lang: Lang, account: string, minor: number): Promise<string> {
  const baseUrl = e2eServer().baseURL;
  const token = await registerMember(baseUrl, account);
  await depositApproved(baseUrl, token, await operatorToken(baseUrl), minor);
  await logInPage(page, token, account, lang);
  return token;
}

/**
 * Reads `read` and, while it returns nothing, moves the market clock two replayed days on (a jump:
 * the feed installs the day without printing the one between; the server runs the steps due
 * before it answers), MAX_DAYS at most; fails with `what`.
 */
async function afterDays<T>(what: string, read: () => Promise<T | null | undefined>): Promise<T> {
  const baseUrl = e2eServer().baseURL;
  for (let day = 0; day <= MAX_DAYS; day += 2) {
    const v = await read();
    if (v !== null && v !== undefined) return v;
    await moveMarket(baseUrl, { days: 2 });
  }
  throw new Error(`${what}: not within ${MAX_DAYS} replayed days`);
}

test('public subscription: apply, draw, won, listed, the shares in holdings (tw, en)', async ({
  browser,
}) => {
  test.setTimeout(TEST_TIMEOUT_MS);
  const baseUrl = e2eServer().baseURL;
  const call = httpApi(baseUrl);
  const members = await Promise.all(
    (['tw', 'en'] as const).map(async (lang, i) => {
      const ctx = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 844 } });
      const page = await ctx.newPage();
      const token = await fundedMember(page, lang, `091100320${i + 1}`, 100_000_000);
      return { lang, page, token };
    }),
  );

  // An open offering whose subscription does not end today (so both applications fit in it),
  // listing soonest.
  const today = await replayDate(call);
  const open = await call<{ items: Offering[] }>(
    'ipo/list',
    { tab: 'open', pageSize: 50 },
    members[0]!.token,
  );
  // Not `applyEnd > today`: after the window's last day the replayed dates start over, so a later
  // session can carry an earlier date.
  const offering = open.data.items
    .filter((o) => o.applyEnd !== today && o.myStatus === null)
    .sort((a, b) => (a.listingDate < b.listingDate ? -1 : 1))[0];
  expect(offering, `an open offering whose subscription goes on after ${today}`).toBeTruthy();
  const { id } = offering!;

  for (const { lang, page } of members) {
    await page.goto(`/#/market/subscribeDetail?id=${id}`);
    await page.getByTestId('ipo-apply').click();
    await page.locator('.adm-dialog-footer').getByText(tr(lang, 'ipo.apply'), { exact: true }).click();
    await expect(page.getByTestId('ipo-mine').getByTestId('ipo-status')).toHaveText(
      tr(lang, 'ipo.status.waitingDraw'),
    );
  }

  // The market clock runs deduction, draw, refund and listing.
  const applicationOf = async (token: string) =>
    (await call<{ items: Application[] }>('ipo/records', { pageSize: 50 }, token)).data.items.find(
      (a) => a.offeringId === id,
    );
  for (const { lang, page, token } of members) {
    await afterDays('the draw', async () =>
      (await applicationOf(token))?.status === 'waitingDraw' ? null : true,
    );
    await page.goto('/#/market/subscribeRecord');
    await expect(page.getByTestId('ipo-records').getByTestId('ipo-status').first()).toHaveText(
      new RegExp(`${tr(lang, 'ipo.status.won')}|${tr(lang, 'ipo.status.subscribed')}`),
    );
    await page.screenshot({ path: path.join(shots, `fast-ipo-won-${lang}.png`) });
  }
  for (const { lang, page, token } of members) {
    const listed = await afterDays('the listing day', async () => {
      const a = await applicationOf(token);
      return a?.status === 'subscribed' && a.orderId !== null ? a : null;
    });
    await page.goto('/#/position/position');
    const row = page.getByTestId(`position-row-${listed.orderId}`);
    await expect(row).toBeVisible();
    await expect(row).toContainText(offering!.symbol);
    await page.goto('/#/market/subscribeRecord');
    await expect(page.getByTestId('ipo-records').getByTestId('ipo-status').first()).toHaveText(
      tr(lang, 'ipo.status.subscribed'),
    );
    await page.goto('/#/position/position');
    await expect(row).toBeVisible();
    await page.screenshot({ path: path.join(shots, `fast-ipo-holding-${lang}.png`) });
  }
  await Promise.all(members.map((m) => m.page.context().close()));
});

/** "NT$34,000.00" as the app writes minor units. */
const money = (minor: number) =>
  (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

for (const [lang, account, others] of [
  ['tw', '0911003211', 3220],
  ['en', '0911003212', 3240],
] as const) {
  test(`auction: a bid lost at allocation, its deposit released (${lang})`, async ({ page }) => {
    test.setTimeout(TEST_TIMEOUT_MS);
    const baseUrl = e2eServer().baseURL;
    const call = httpApi(baseUrl);
    const opToken = await operatorToken(baseUrl);
    const funds = 50_000_000; // NT$500,000: a one-lot deposit is NT$160,000–180,000
    const token = await fundedMember(page, lang, account, funds);
    const bidders = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const t = await registerMember(baseUrl, `0911${String(others + i).padStart(6, '0')}`);
        await depositApproved(baseUrl, t, opToken, funds);
        return t;
      }),
    );
    const list = await call<{ today: number }>('admin/offerings', { pageSize: 1 }, opToken);
    const saved = await call<{ id: number }>(
      'admin/saveOffering',
      {
        kind: 'auction',
        symbol: '2330',
        name: '台積電',
        priceMinor: 80_000,
        lots: 10,
        depositBps: 2_000,
        startDay: list.data.today,
        listingDay: list.data.today + 5,
      },
      opToken,
    );
    expect(saved.status, saved.msg).toBe(1);
    const id = saved.data.id;

    // Ten higher bids of one lot each (the cap) take the whole tranche, in the bidding hours
    // (09:00–14:00 market time; the clock stands still meanwhile).
    await marketToAuctionHours(baseUrl, 150);
    for (const [i, t] of bidders.entries()) {
      const r = await call('auction/bid', { offeringId: id, priceMinor: 90_000, lots: 1 }, t, {
        'idempotency-key': `auction-${lang}-${i}`,
      });
      expect(r.status, `bid ${i}: ${r.msg}`).toBe(1);
    }
    // The member's bid at the minimum, on screen: 1 lot × 1,000 shares × NT$800 × 20 %.
    const deposit = 80_000 * 1_000 * 0.2;
    await page.goto('/#/market/bidding');
    await expect(page.getByTestId(`auction-price-${id}`)).toBeVisible();
    await marketToAuctionHours(baseUrl, 150);
    await page.getByTestId(`auction-price-${id}`).fill('800');
    await page.getByTestId(`auction-lots-${id}`).fill('1');
    await page.getByTestId(`auction-bid-${id}`).click();
    await page.getByTestId('bidding-tab-records').click();
    const bid = page.locator('[data-testid^="bid-"]').first();
    await expect(bid).toContainText(tr(lang, 'primary.bidStatus.bidding'));
    const info = async () =>
      (await call<{ frozenMinor: number; availableMinor: number }>('user/info', {}, token)).data;
    expect((await info()).frozenMinor).toBe(deposit);

    // Allocation, on the business day after the third bidding day.
    await afterDays('the allocation', async () => {
      const mine = await call<{ items: { offeringId: number; status: string }[] }>(
        'auction/bids',
        { pageSize: 20 },
        token,
      );
      return mine.data.items.find((b) => b.offeringId === id && b.status !== 'bidding') ?? null;
    });
    await page.reload();
    await page.getByTestId('bidding-tab-records').click();
    await expect(bid).toContainText(tr(lang, 'primary.bidStatus.lost'));
    expect((await info()).frozenMinor).toBe(0);
    expect((await info()).availableMinor).toBe(funds);
    await page.goto('/#/user/usercenter');
    await expect(page.getByTestId('uc-frozen')).toContainText(money(0));
    await page.goto('/#/market/bidding');
    await page.getByTestId('bidding-tab-records').click();
    await expect(bid).toContainText(tr(lang, 'primary.bidStatus.lost'));
    await page.screenshot({ path: path.join(shots, `fast-auction-lost-${lang}.png`) });
  });
}
