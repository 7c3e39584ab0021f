/**
 * What every `scripts/*-screenshots.ts` does to take one screenshot: a fresh Chromium context at
 * 390×844 (the phone the product is checked on), the member's session and language put in local
 * storage as the app keeps them, the route opened and settled, an optional action, then a PNG
 * named `<name>-<lang>.png` under `out`. Page errors are printed with the shot's name.
 *
 * {@link ShotOptions} change that for a whole run (given to `openScreens`) or for one shot (the
 * last argument of `shot`, over the run's): another viewport, the operator console instead of the
 * member app, what the page must show before it counts as open, the settle, a full-page image.
 */
import { chromium, type Browser, type Page } from 'playwright';

export type Lang = 'tw' | 'en';

/** A signed-in member (token and account as `auth/login` answers them); null for a guest. */
export interface ScreenMember {
  token: string;
  account: string;
}

export interface ShotOptions {
  /** The page's size in CSS pixels; default 390×844. */
  viewport?: { width: number; height: number };
  /**
   * Open `admin.html#<hash>` (the operator console) instead of the member app, the session under
   * the console's keys (`admin_tokend`, `admin_account`, `admin_is_admin`) and the language under
   * `lang`, as the console keeps them after an operator's login.
   */
  console?: boolean;
  /**
   * When the page counts as open: once this test id shows (its first match, up to 30 s) or this
   * function resolves; default once the network is idle.
   */
  ready?: string | RegExp | ((page: Page) => Promise<unknown>);
  /** How long to wait once the page is open, before the action; default 1,000 ms. */
  settleMs?: number;
  /** Save the whole scrollable page rather than the viewport. */
  fullPage?: boolean;
}

export interface Screens {
  /** Opens `#<hash>` as `member` in `lang`, runs `act`, saves `<out>/<name>-<lang>.png`. */
  shot(
    member: ScreenMember | null,
    lang: Lang,
    hash: string,
    name: string,
    act?: (page: Page) => Promise<void>,
    opts?: ShotOptions,
  ): Promise<void>;
  close(): Promise<void>;
}

/** Starts Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) for a server on `port`. */
export async function openScreens(run: { port: number; out: string } & ShotOptions): Promise<Screens> {
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  return {
    async shot(member, lang, hash, name, act, shotOpts) {
      const opts = { ...run, ...shotOpts };
      const ctx = await browser.newContext({
        viewport: opts.viewport ?? { width: 390, height: 844 },
        deviceScaleFactor: 1,
      });
      await ctx.addInitScript(
        ([prefix, t, acct, l]) => {
          if (t) localStorage.setItem(`${prefix}tokend`, t);
          if (acct) localStorage.setItem(`${prefix}account`, acct);
          if (t && prefix) localStorage.setItem(`${prefix}is_admin`, 'true');
          localStorage.setItem('lang', l!);
        },
        [opts.console ? 'admin_' : '', member?.token ?? '', member?.account ?? '', lang],
      );
      const page = await ctx.newPage();
      page.on('pageerror', (e) => console.error(`[${name}] page error:`, e.message));
      await page.goto(`http://127.0.0.1:${opts.port}/${opts.console ? 'admin.html' : ''}#${hash}`);
      const ready = opts.ready;
      if (typeof ready === 'function') await ready(page);
      else if (ready) await page.getByTestId(ready).first().waitFor({ timeout: 30_000 });
      else await page.waitForLoadState('networkidle');
      await page.waitForTimeout(opts.settleMs ?? 1_000);
      if (act) await act(page);
      await page.screenshot({ path: `${opts.out}/${name}-${lang}.png`, fullPage: opts.fullPage });
      await ctx.close();
    },
    close: () => browser.close(),
  };
}
