/**
 * The hybrid shell's back button and pull to refresh in Chromium at 390×844 with touch, in tw
 * and en, on the real server (product-spec §4 "Pull-to-refresh: normal, pulling, loosing,
 * loading, success", "Hybrid app back button: goes back if possible; otherwise a second press
 * within 1 second quits the app"; §2 "Going back with no history falls back to /home/index").
 *
 * The shell is stubbed at its edge (src/app/use-hybrid-back.ts): `navigator.app.exitApp()`
 * records its calls, and the test fires `backbutton` on document as cordova-android does. Without
 * the stub (a plain browser) a `backbutton` changes nothing. The pull is a real touch drag
 * (Chrome DevTools Protocol touch events), recorded state by state: normal (head closed) →
 * pulling → loosing → loading (held by delaying the index refetch) → success → normal, and the
 * home screen's index, quotes and news are fetched again (the market Index tab's indices too).
 *
 * Screenshots: docs/screenshots/hybrid-{exit-toast,pull-pulling,pull-loosing,pull-loading,
 * pull-success}-{tw,en}.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '../support/e2e-test';
import { logInPage, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

type Lang = 'tw' | 'en';
const read = (file: string) => JSON.parse(readFileSync(path.resolve(file), 'utf8'));
const STRINGS: Record<Lang, any> = { tw: read('locales/more/tw.json'), en: read('locales/more/en.json') };
const shots = path.resolve('docs/screenshots');
mkdirSync(shots, { recursive: true });

/** Registers `account` and opens the app logged in, in `lang`, for every page of `context`. */
async function member(context: BrowserContext, account: string, lang: Lang): Promise<void> {
  const token = await registerMember(e2eServer().baseURL, account);
  await logInPage(context, token, account, lang);
}

/** The hybrid shell's edge: `navigator.app.exitApp()` recording the time of each call. */
async function stubShell(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __exits: number[] };
    w.__exits = [];
    Object.defineProperty(navigator, 'app', {
      configurable: true,
      value: { exitApp: () => w.__exits.push(performance.now()) },
    });
  });
}

const exits = (page: Page) =>
  page.evaluate(() => (window as unknown as { __exits?: number[] }).__exits?.length);
/** One press of the hardware back button, as the shell fires it. */
const pressBack = (page: Page) => page.evaluate(() => void document.dispatchEvent(new Event('backbutton')));
const homeUrl = /#\/home\/index$/;

async function openHome(page: Page): Promise<void> {
  await page.goto('/#/home/index');
  await expect(page.getByTestId('home-index')).toBeVisible();
  await expect(page.getByTestId('home-news')).toBeVisible();
  // antd-mobile's PullToRefresh has loaded (src/ui/pull-refresh.tsx loads it after first render).
  await expect(page.locator('.adm-pull-to-refresh')).toHaveCount(1);
}

const BACK_CASES: { lang: Lang; account: string }[] = [
  { lang: 'tw', account: '0911002401' },
  { lang: 'en', account: '0911002402' },
];

for (const { lang, account } of BACK_CASES) {
  test(`hybrid back button: toast, quit within 1 s, back through history, home without (${lang})`, async ({
    context,
    page,
  }) => {
    const S = STRINGS[lang];
    await member(context, account, lang);
    await stubShell(context);
    await openHome(page);

    // Home with no history: the first press only toasts.
    await pressBack(page);
    const toast = page.locator('.adm-toast-main').filter({ hasText: S.hybrid.exitHint });
    await expect(toast).toBeVisible();
    await page.screenshot({ path: path.join(shots, `hybrid-exit-toast-${lang}.png`) });
    expect(await exits(page)).toBe(0);

    // More than 1 s after it: a toast again, not a quit; a press 300 ms after that quits.
    const [late, quick] = await page.evaluate(async () => {
      const w = window as unknown as { __exits: number[] };
      const fire = () => document.dispatchEvent(new Event('backbutton'));
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      await sleep(1100);
      fire();
      const late = w.__exits.length;
      await sleep(300);
      fire();
      return [late, w.__exits.length];
    });
    expect(late).toBe(0);
    expect(quick).toBe(1);
    await expect(page).toHaveURL(homeUrl);

    // With in-app history, back goes back (and never quits).
    await page.locator('.card-title-row .nav-link').first().click();
    await expect(page).toHaveURL(/#\/market\/market/);
    await pressBack(page);
    await expect(page).toHaveURL(homeUrl);
    await pressBack(page); // home again, no history left: a toast, the counter started over
    await expect(toast).toBeVisible();
    expect(await exits(page)).toBe(1);

    // A dialog on screen: back closes it (as a cancel), stays on the screen, never counts to quit.
    await page.goto('/#/user/setting');
    const exitsBefore = await exits(page); // the navigation loaded the page anew: the stub's count too
    await page.getByTestId('setting-logout').click();
    const dialog = page.locator('.adm-dialog .adm-center-popup-body').filter({ hasText: S.uc.logoutConfirm });
    await expect(dialog).toBeVisible();
    // Pressed once the dialog has finished opening, as a member would (its spring at rest).
    await expect(page.locator('.adm-dialog .adm-center-popup-wrap > div').first()).toHaveCSS('opacity', '1');
    await pressBack(page);
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/#\/user\/setting$/);
    await expect(page.getByTestId('setting-logout')).toBeVisible(); // cancelled: still logged in
    expect(await exits(page)).toBe(exitsBefore);

    // Another screen opened directly (no history): back goes to /home/index, then toast, quit.
    const other = await context.newPage();
    await other.goto('/#/home/moreNews');
    await expect(other.getByTestId('news-list')).toBeVisible();
    await pressBack(other);
    await expect(other).toHaveURL(homeUrl);
    await expect(other.getByTestId('home-index')).toBeVisible();
    expect(await exits(other)).toBe(0);
    await pressBack(other);
    await expect(other.locator('.adm-toast-main').filter({ hasText: S.hybrid.exitHint })).toBeVisible();
    await pressBack(other);
    expect(await exits(other)).toBe(1);
  });
}

test('plain browser: a backbutton event changes nothing', async ({ context, page }) => {
  await member(context, '0911002403', 'en');
  await openHome(page);
  await pressBack(page);
  await pressBack(page);
  await page.goto('/#/home/moreNews');
  await expect(page.getByTestId('news-list')).toBeVisible();
  await pressBack(page);
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(/#\/home\/moreNews$/);
  await expect(page.locator('.adm-toast-main')).toHaveCount(0);
});

/** A touch drag through CDP: start, move to each y in turn, and (separately) end. */
async function touchDriver(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const x = 195;
  return {
    start: (y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] }),
    async moveTo(from: number, to: number) {
      for (let y = from + 10; y <= to; y += 10) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
        await page.waitForTimeout(16);
      }
    },
    end: () => cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] }),
  };
}

/**
 * Records every state the pull head shows, in order, into `window.__pull` (read by `pullStates`):
 * `normal` while the head is closed (0 px), else the text's `data-pull-state`.
 */
async function recordPullStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __pull: string[] };
    w.__pull = [];
    const read = () => {
      const head = document.querySelector<HTMLElement>('.adm-pull-to-refresh-head');
      const text = document.querySelector<HTMLElement>('[data-testid="pull-state"]');
      if (!head || !text) return;
      const state = head.getBoundingClientRect().height < 1 ? 'normal' : text.dataset.pullState!;
      if (w.__pull[w.__pull.length - 1] !== state) w.__pull.push(state);
    };
    read();
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['style', 'data-pull-state'],
    });
  });
}
const pullStates = (page: Page) => page.evaluate(() => (window as unknown as { __pull: string[] }).__pull);

/**
 * Waits (every animation frame: "success" shows for 600 ms only) until the head shows `state`
 * and returns its text.
 */
async function pullText(page: Page, state: string): Promise<string> {
  const handle = await page.waitForFunction(
    (s) => {
      const el = document.querySelector<HTMLElement>('[data-testid="pull-state"]');
      return el?.dataset.pullState === s ? el.textContent : null;
    },
    state,
    { polling: 'raf', timeout: 10_000 },
  );
  return (await handle.jsonValue()) as string;
}

const PULL_CASES: { lang: Lang; account: string }[] = [
  { lang: 'tw', account: '0911002404' },
  { lang: 'en', account: '0911002405' },
];

for (const { lang, account } of PULL_CASES) {
  test(`pull to refresh on home: pulling, loosing, loading, success, and a refetch (${lang})`, async ({
    context,
    page,
  }) => {
    const S = STRINGS[lang];
    await member(context, account, lang);
    await openHome(page);

    await recordPullStates(page);

    const counts = new Map<string, number>();
    const WATCHED = ['market/indices', 'market/quotes', 'news/list'];
    page.on('request', (r) => {
      const name = WATCHED.find((n) => r.url().endsWith(`/api/vue/${n}`));
      if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
    });
    // The index refetch is held until the loading state has been looked at.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/api/vue/market/indices', async (route) => {
      await gate;
      await route.continue();
    });

    const state = page.getByTestId('pull-state');
    const touch = await touchDriver(page);
    const y0 = 300;
    await touch.start(y0);
    await touch.moveTo(y0, y0 + 110);
    await expect(state).toHaveAttribute('data-pull-state', 'pulling');
    await expect(state).toHaveText(S.pull.pulling);
    await page.screenshot({ path: path.join(shots, `hybrid-pull-pulling-${lang}.png`) });

    await touch.moveTo(y0 + 110, y0 + 320);
    await expect(state).toHaveAttribute('data-pull-state', 'loosing');
    await expect(state).toHaveText(S.pull.loosing);
    await page.screenshot({ path: path.join(shots, `hybrid-pull-loosing-${lang}.png`) });

    expect(counts.get('market/indices') ?? 0).toBe(0);
    await touch.end();
    await expect(state).toHaveAttribute('data-pull-state', 'loading');
    await expect(state).toHaveText(S.pull.loading);
    await expect.poll(() => counts.get('market/indices') ?? 0).toBe(1);
    await page.waitForTimeout(400); // the head settles at its loading height
    await page.screenshot({ path: path.join(shots, `hybrid-pull-loading-${lang}.png`) });
    await expect(state).toHaveAttribute('data-pull-state', 'loading'); // still held

    release();
    expect(await pullText(page, 'success')).toBe(S.pull.success);
    await page.screenshot({ path: path.join(shots, `hybrid-pull-success-${lang}.png`) });
    await expect
      .poll(() => page.locator('.adm-pull-to-refresh-head').evaluate((e) => e.getBoundingClientRect().height))
      .toBe(0);

    expect(await pullStates(page)).toEqual(['normal', 'pulling', 'loosing', 'loading', 'success', 'normal']);
    expect(counts.get('market/quotes') ?? 0).toBeGreaterThanOrEqual(1);
    expect(counts.get('news/list') ?? 0).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('home-index')).toBeVisible();
  });
}

test('pull to refresh on the market Index tab fetches the indices again', async ({ context, page }) => {
  await member(context, '0911002406', 'tw');
  await page.goto('/#/market/market?tab=index');
  await expect(page.getByTestId('breadth-card')).toBeVisible();
  await expect(page.locator('[data-testid^="index-row-"]').first()).toBeVisible();
  await expect(page.locator('.adm-pull-to-refresh')).toHaveCount(1);
  await recordPullStates(page);
  let indices = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/vue/market/indices')) indices += 1;
  });
  const touch = await touchDriver(page);
  await touch.start(400);
  await touch.moveTo(400, 720);
  await expect(page.getByTestId('pull-state')).toHaveAttribute('data-pull-state', 'loosing');
  expect(indices).toBe(0);
  await touch.end();
  await expect
    .poll(() => pullStates(page))
    .toEqual(['normal', 'pulling', 'loosing', 'loading', 'success', 'normal']);
  expect(indices).toBe(1);
  await expect(page.locator('[data-testid^="index-row-"]').first()).toBeVisible();
});
