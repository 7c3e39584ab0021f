// @vitest-environment jsdom
/**
 * index.html's first-paint script (src/app/first-paint.ts) shows the static shell in the language
 * the app will start in, on the landing route for guests and on the market route for anyone: it
 * agrees with
 * src/app/i18n.ts `detectLang` on every combination of `?lang=` (search or hash), stored `lang`
 * and route, and hides the shell from a stored session.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { transformWithOxc } from 'vite';
import { detectLang } from '../../src/app/i18n';

const SRC = 'src/app/first-paint.ts';
const script = (await transformWithOxc(readFileSync(SRC, 'utf8'), SRC, { lang: 'ts' })).code;

/** Runs the compiled script as index.html does (a classic script on the current document). */
function runFirstPaint(): { lang: string; shell: string | undefined; route: string | undefined } {
  const html = document.documentElement;
  delete html.dataset.shell;
  delete html.dataset.shellRoute;
  html.lang = '';
  new Function(script)();
  return { lang: html.lang, shell: html.dataset.shell, route: html.dataset.shellRoute };
}

const URLS = [
  '/',
  '/#/',
  '/#/login/start',
  '/#/login/start?lang=en',
  '/?lang=en#/login/start',
  '/?lang=tw#/market/market',
  '/#/market/market',
  '/#/market/market?lang=en',
  '/#/login/login',
  '/?lang=xx',
];
const STORED = [null, 'tw', 'en', 'xx'];

afterEach(() => {
  localStorage.clear();
  history.replaceState(null, '', '/');
});

describe('first-paint script', () => {
  for (const url of URLS)
    for (const stored of STORED)
      it(`${url} with stored lang ${stored}: the language detectLang starts in`, () => {
        history.replaceState(null, '', url);
        if (stored) localStorage.setItem('lang', stored);
        const { lang, shell, route } = runFirstPaint();
        const expected = detectLang();
        expect(lang).toBe(expected === 'tw' ? 'zh-Hant-TW' : 'en');
        const landing = /^\/(\?[^#]*)?(#\/?(login\/start)?(\?.*)?)?$/.test(url);
        const market = /#\/market\/market(\?.*)?$/.test(url);
        expect(shell).toBe(landing || market ? expected : undefined);
        expect(route).toBe(landing ? 'start' : market ? 'market' : undefined);
      });

  it('shows no shell to a member with a stored session (their start screen differs)', () => {
    history.replaceState(null, '', '/#/login/start');
    localStorage.setItem('tokend', 'abc');
    expect(runFirstPaint().shell).toBeUndefined();
  });

  it("shows the market screen's frame to a member too (it is the same before its data comes)", () => {
    history.replaceState(null, '', '/#/market/market?tab=index');
    localStorage.setItem('tokend', 'abc');
    expect(runFirstPaint()).toMatchObject({ shell: 'tw', route: 'market' });
  });

  it("shows the home screen's frame on a member's landing, in the member's language", () => {
    history.replaceState(null, '', '/#/home/index');
    localStorage.setItem('tokend', 'abc');
    localStorage.setItem('lang', 'en');
    expect(runFirstPaint()).toMatchObject({ shell: 'en', route: 'home' });
    history.replaceState(null, '', '/#/home/coupons');
    expect(runFirstPaint().shell).toBeUndefined();
  });
});
