/**
 * What every `scripts/*-screenshots.ts` does to take one screenshot: a fresh Chromium context at
 * 390×844 (the phone the product is checked on), the member's session and language put in local
 * storage as the app keeps them, the route opened and settled, an optional action, then a PNG
 * named `<name>-<lang>.png` under `out`. Page errors are printed with the shot's name.
 */
import { chromium, type Browser, type Page } from 'playwright';

export type Lang = 'tw' | 'en';

/** A signed-in member (token and account as `auth/login` answers them); null for a guest. */
export interface ScreenMember {
  token: string;
  account: string;
}

export interface Screens {
  /** Opens `#<hash>` as `member` in `lang`, runs `act`, saves `<out>/<name>-<lang>.png`. */
  shot(
    member: ScreenMember | null,
    lang: Lang,
    hash: string,
    name: string,
    act?: (page: Page) => Promise<void>,
  ): Promise<void>;
  close(): Promise<void>;
}

/** Starts Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) for a server on `port`. */
export async function openScreens(opts: { port: number; out: string; settleMs?: number }): Promise<Screens> {
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  return {
    async shot(member, lang, hash, name, act) {
      const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
      await ctx.addInitScript(
        ([t, acct, l]) => {
          if (t) localStorage.setItem('tokend', t);
          if (acct) localStorage.setItem('account', acct);
          localStorage.setItem('lang', l!);
        },
        [member?.token ?? '', member?.account ?? '', lang],
      );
      const page = await ctx.newPage();
      page.on('pageerror', (e) => console.error(`[${name}] page error:`, e.message));
      await page.goto(`http://127.0.0.1:${opts.port}/#${hash}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(opts.settleMs ?? 1_000);
      if (act) await act(page);
      await page.screenshot({ path: `${opts.out}/${name}-${lang}.png` });
      await ctx.close();
    },
    close: () => browser.close(),
  };
}
