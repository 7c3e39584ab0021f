/**
 * Every route of the spec's table (product-spec §2) and every screen a home shortcut opens, walked
 * in Chromium at 390×844 by a logged-in, funded member in tw and in en. Each route must stay on
 * its own path (no fallback redirect to /home/index), raise no page error, and show no raw
 * translation key (a `group.key` of the string files where a text should be). A screenshot of
 * each lands in tests/e2e/screenshots/routes/. And every home shortcut is tapped: each must open
 * a screen other than home, with no raw key and no page error.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '../support/e2e-test';
import { depositApproved, httpApi } from '../support/http-funding';
import { logInPage, operatorToken, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('tests/e2e/screenshots/routes');
mkdirSync(shots, { recursive: true });
type Lang = 'tw' | 'en';

/** The spec's route table, verbatim (product-spec §2). */
const SPEC_ROUTES = [
  'login/start',
  'login/logon',
  'login/logon2',
  'login/login',
  'login/register',
  'home/index',
  'home/moreNews',
  'home/DetailsPage',
  'home/coupons',
  'home/search',
  'home/searchIndex',
  'home/notice',
  'home/noticeDetail',
  'home/etf',
  'user/accountLevel',
  'user/usercenter',
  'user/setting',
  'user/loginPassword',
  'user/setPassword',
  'user/recharge',
  'user/rechargeChannel',
  'user/withdraw',
  'user/WithCard',
  'user/BankCard',
  'user/FundingDetails',
  'user/bandCard',
  'user/exchange',
  'user/language',
  'user/agreement',
  'user/aboutUs',
  'user/pj',
  'user/jkjl',
  'market/market',
  'market/stockHot/stockList',
  'market/marketDetail',
  'market/marketBuy',
  'market/subscribe',
  'market/subscribeDetail',
  'market/subscribeRecord',
  'market/favo',
  'position/position',
  'position/positionDetail',
  'common/dayTrading',
  'common/dividend',
  'common/dividend2',
  'common/dividend3',
  'gdindex/gdindex',
  'gdindex/gdList',
  'gdindex/dsFllow',
  'gdindex/dsFllowInfo',
  'gdindex/dsFllowRecord',
  'trading/trading',
  'wallet/index',
] as const;

/** Screens past the spec's table that home shortcuts and the member centre open. */
const MORE_ROUTES = [
  'market/bidding',
  'user/blockTradePassword',
  'user/credit',
  'user/invite',
  'user/service',
  'common/lending',
  'common/margin',
];

/** Query strings that make a detail screen show a real record. */
const QUERY: Record<string, string> = {
  'market/marketDetail': 'symbol=2330',
  'market/marketBuy': 'symbol=2330',
  'common/dividend3': 'symbol=2330',
  'login/logon2': 'account=0911000901',
};

/** The string files' top-level groups: a `group.key` in the page's text is a raw key. */
function stringGroups(): string[] {
  const files = ['locales/tw.json', 'locales/more/tw.json'];
  const groups = new Set<string>();
  for (const f of files) for (const k of Object.keys(JSON.parse(readFileSync(f, 'utf8')))) groups.add(k);
  return [...groups];
}
const RAW_KEY = new RegExp(`\\b(?:${stringGroups().join('|')})\\.[A-Za-z0-9_.]+\\b`);

async function login(page: Page, lang: Lang, account: string) {
  const baseUrl = e2eServer().baseURL;
  const call = httpApi(baseUrl);
  const opToken = await operatorToken(baseUrl);
  const token = await registerMember(baseUrl, account);
  await depositApproved(baseUrl, token, opToken, 100_000_000);
  await logInPage(page, token, account, lang);
  const news = await call<{ items: { id: number }[] }>('news/list', { page: 1, pageSize: 1 });
  if (news.data?.items[0]) QUERY['home/DetailsPage'] = `id=${news.data.items[0].id}`;
  const ipo = await call<{ items: { id: number }[] }>('ipo/list', { tab: 'open', page: 1, pageSize: 1 });
  if (ipo.data?.items[0]) QUERY['market/subscribeDetail'] = `id=${ipo.data.items[0].id}`;
}

/** Every route walked, in two halves: two tests a language, so neither worker waits on one long one. */
const ROUTES = [...SPEC_ROUTES, ...MORE_ROUTES];
const HALVES = [ROUTES.slice(0, Math.ceil(ROUTES.length / 2)), ROUTES.slice(Math.ceil(ROUTES.length / 2))];

/** Page errors and raw keys on the screen now, as `problems` lines named `what`. */
async function screenProblems(page: Page, what: string, errors: string[]): Promise<string[]> {
  const problems: string[] = [];
  const raw = RAW_KEY.exec(await page.locator('body').innerText());
  if (raw) problems.push(`${what}: raw key ${raw[0]}`);
  if (errors.length > 0) problems.push(`${what}: page error ${errors.splice(0).join('; ')}`);
  return problems;
}

for (const [lang, accounts] of [
  ['tw', ['0911000901', '0911000903', '0911000905']],
  ['en', ['0911000902', '0911000904', '0911000906']],
] as const) {
  HALVES.forEach((routes, half) =>
    test(`every route renders its own screen (${lang}, half ${half + 1} of 2)`, async ({ page }) => {
      test.setTimeout(300_000);
      await login(page, lang, accounts[half]!);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const problems: string[] = [];
      for (const route of routes) {
        const q = QUERY[route];
        await page.goto(`/#/${route}${q ? `?${q}` : ''}`);
        // The screen's chunk and its first data: the nav bar is drawn and the network settles.
        await page.locator('.adm-nav-bar, .start-hero').first().waitFor({ timeout: 15_000 });
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(300);
        const at = new URL(page.url()).hash.replace(/^#\//, '').split('?')[0];
        if (at !== route) problems.push(`${route}: redirected to ${at}`);
        problems.push(...(await screenProblems(page, route, errors)));
        await page.screenshot({ path: path.join(shots, `${route.replace(/\//g, '_')}-${lang}.png`) });
      }
      expect(problems).toEqual([]);
    }),
  );

  test(`every home shortcut opens a screen of its own (${lang})`, async ({ page }) => {
    await login(page, lang, accounts[2]);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const problems: string[] = [];
    await page.goto('/#/home/index');
    const shortcuts = page.locator('[data-testid^="shortcut-"]');
    await shortcuts.first().waitFor();
    const ids = await shortcuts.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
    expect(ids.length).toBeGreaterThanOrEqual(16);
    for (const id of ids) {
      await page.goto('/#/home/index');
      await page.getByTestId(id).click();
      await page
        .waitForURL((u) => !u.hash.startsWith('#/home/index'), { timeout: 10_000 })
        .catch(() => undefined);
      await page.locator('.adm-nav-bar').first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(500);
      const at = new URL(page.url()).hash.replace(/^#\//, '').split('?')[0];
      if (at === 'home/index') problems.push(`${id}: leads nowhere`);
      problems.push(...(await screenProblems(page, id, errors)));
    }
    expect(problems).toEqual([]);
  });
}

/** The UI kit's main chunk (vite.config.ts `ui`), not `ui-base`, `ui-render` nor `ui-global`. */
const KIT_CHUNK = /\/assets\/ui-[A-Za-z0-9_-]{8}\.js$/;

test("the landing screen loads none of the UI kit's main chunk until it is used", async ({ page }) => {
  const kit: string[] = [];
  const toast: string[] = [];
  page.on('request', (r) => {
    if (KIT_CHUNK.test(r.url())) kit.push(r.url());
    if (/\/assets\/toast-impl-[^/]*\.js$/.test(r.url())) toast.push(r.url());
  });
  // The app's first render is done once it asks for the kit's render hook (src/app/main.tsx).
  const rendered = page.waitForRequest(/\/assets\/antd-render-[^/]*\.js$/);
  await page.goto('/#/login/start');
  await rendered;
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1_500); // idle callbacks (the rest of the strings) have run
  expect(kit).toEqual([]);
  expect(toast).toEqual([]);

  // A tap loads Toast (with the kit), and the next screen works.
  await page.getByTestId('start-login').click();
  await expect(page).toHaveURL(/#\/login\/login/);
  await expect.poll(() => kit.length).toBeGreaterThan(0);
  await expect.poll(() => toast.length).toBe(1);
  await expect(page.locator('.adm-nav-bar').first()).toBeVisible();
});
