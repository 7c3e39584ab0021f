/**
 * A member for the end-to-end tests: registered over the real API with the first-run invitation
 * code, and a page that opens already logged in (the session keys the app reads from local
 * storage: tokend, account, lang; product-spec §3 "Session"). Each spec passes its own accounts so
 * specs sharing the suite's one server never collide.
 */
import { expect, type Page } from '@playwright/test';
import { firstRun } from './first-run';
import { httpApi } from './http-funding';

export type Lang = 'tw' | 'en';

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

/** Makes `page` open as the logged-in member `account` in `lang` (before its first navigation). */
export async function logInPage(page: Page, token: string, account: string, lang: Lang): Promise<void> {
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
