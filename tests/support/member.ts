/**
 * A member for the end-to-end tests: registered over the real API with the first-run invitation
 * code, and a page that opens already logged in (the session keys the app reads from local
 * storage: tokend, account, lang; product-spec §3 "Session"). Each spec passes its own accounts so
 * specs sharing the suite's one server never collide.
 */
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { firstRun } from './first-run';
import { e2eServer } from './e2e-server';
import { httpApi } from './http-funding';
import type { Lang } from './locales';

export type { Lang };

/** Registers `account` (password abcd1234) and returns its token; fails the test on a refusal. */
export async function registerMember(baseUrl: string, account: string): Promise<string> {
  const reg = await httpApi(baseUrl)<{ token: string }>('user/register', {
    account,
    password: 'abcd1234',
    confirmPassword: 'abcd1234',
    inviteCode: firstRun().invite,
    agree: true,
  });
  expect(reg.status, reg.msg).toBe(1);
  return reg.data.token;
}

/**
 * Makes `page` (or every page of a context) open as the logged-in member `account` in `lang`;
 * call before the first navigation.
 */
export async function logInPage(
  page: Page | BrowserContext,
  token: string,
  account: string,
  lang: Lang,
): Promise<void> {
  await page.addInitScript(
    ([tk, acct, l]) => {
      localStorage.setItem('tokend', tk!);
      localStorage.setItem('account', acct!);
      localStorage.setItem('lang', l!);
    },
    [token, account, lang],
  );
}

/** The operator's token from the first-run credentials. */
export async function operatorToken(baseUrl: string): Promise<string> {
  const creds = firstRun();
  const op = await httpApi(baseUrl)<{ token: string }>('admin/login', {
    account: creds.operator,
    password: creds.password,
  });
  expect(op.status, op.msg).toBe(1);
  return op.data.token;
}

/**
 * The operator console (admin.html) in its own desktop-sized context (1280×800), logged in with
 * the first-run credentials, in `lang` when given. Close it with `page.context().close()`.
 */
export async function openConsole(browser: Browser, lang?: Lang): Promise<Page> {
  const creds = firstRun();
  const ctx = await browser.newContext({
    baseURL: e2eServer().baseURL,
    viewport: { width: 1280, height: 800 },
  });
  if (lang) await ctx.addInitScript((l) => localStorage.setItem('lang', l), lang);
  const op = await ctx.newPage();
  await op.goto('/admin.html');
  await op.getByTestId('admin-account').fill(creds.operator);
  await op.getByTestId('admin-password').fill(creds.password);
  await op.getByTestId('admin-login').click();
  return op;
}
