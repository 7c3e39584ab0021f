/**
 * The primary market's journeys that span replayed days, in Chromium at 390×844 in tw and en, on
 * the fast-clock server (playwright.config.ts: 1200×, a replayed day in 18 wall seconds):
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
import { expect, test, type Page } from '@playwright/test';
import { depositApproved, httpApi, type HttpCall } from '../support/http-funding';
import { tr, type Lang } from '../support/locales';
import { waitForAuctionHours } from '../support/market-clock';
import { logInPage, operatorToken, registerMember } from '../support/member';

const shots = path.resolve('docs/screenshots');
/** Replayed days to the listing (at most ~10) at 18 s each, plus the pages. */
const TEST_TIMEOUT_MS = 420_000;

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
  const baseUrl = test.info().project.use.baseURL!;
  const token = await registerMember(baseUrl, account);
  await depositApproved(baseUrl, token, await operatorToken(baseUrl), minor);
  await logInPage(page, token, account, lang);
  return token;
}

/** Polls `read` (every 1 s, up to `timeoutMs`) until it returns a value; fails with `what`. */
async function until<T>(
  what: string,
  read: () => Promise<T | null | undefined>,
  timeoutMs: number,
): Promise<T> {
  let v: T | null | undefined;
  await expect
    .poll(async () => (v = await read()) ?? null, { message: what, timeout: timeoutMs, intervals: [1_000] })
    .not.toBeNull();
  return v!;
}

test('public subscription: apply, draw, won, listed, the shares in holdings (tw, en)', async ({
  browser,
}) => {
  test.setTimeout(TEST_TIMEOUT_MS);
  const baseUrl = test.info().project.use.baseURL!;
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
    await until(
      'the draw',
      async () => ((await applicationOf(token))?.status === 'waitingDraw' ? null : true),
      240_000,
    );
    await page.goto('/#/market/subscribeRecord');
    await expect(page.getByTestId('ipo-records').getByTestId('ipo-status').first()).toHaveText(
      new RegExp(`${tr(lang, 'ipo.status.won')}|${tr(lang, 'ipo.status.subscribed')}`),
    );
    await page.screenshot({ path: path.join(shots, `fast-ipo-won-${lang}.png`) });
  }
  for (const { lang, page, token } of members) {
    const listed = await until(
      'the listing day',
      async () => {
        const a = await applicationOf(token);
        return a?.status === 'subscribed' && a.orderId !== null ? a : null;
      },
      300_000,
    );
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
    const baseUrl = test.info().project.use.baseURL!;
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

    // Ten higher bids of one lot each (the cap) take the whole tranche. Bids are taken 09:00–14:00
    // market time (15 wall seconds of each replayed day here): one refused outside them is tried
    // again, with a fresh idempotency key, in the next bidding hours.
    for (const [i, t] of bidders.entries()) {
      let attempt = 0;
      await until(
        `bid ${i} accepted`,
        async () => {
          const r = await call('auction/bid', { offeringId: id, priceMinor: 90_000, lots: 1 }, t, {
            'idempotency-key': `fast-auction-${lang}-${i}-${attempt++}`,
          });
          return r.status === 1 ? r : null;
        },
        120_000,
      );
    }
    // The member's bid at the minimum, on screen: 1 lot × 1,000 shares × NT$800 × 20 %.
    const deposit = 80_000 * 1_000 * 0.2;
    await page.goto('/#/market/bidding');
    await expect(page.getByTestId(`auction-price-${id}`)).toBeVisible();
    await waitForAuctionHours(baseUrl, 150); // 150 market minutes = 7.5 wall seconds left
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
    await until(
      'the allocation',
      async () => {
        const mine = await call<{ items: { offeringId: number; status: string }[] }>(
          'auction/bids',
          { pageSize: 20 },
          token,
        );
        return mine.data.items.find((b) => b.offeringId === id && b.status !== 'bidding') ?? null;
      },
      240_000,
    );
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
