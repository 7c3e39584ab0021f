/**
 * Customer service in Chromium on the real server: two members (one in tw, one in en, 390×844)
 * write to customer service from the home shortcut, one of them with an image; the operator sees
 * both conversations in the console with their unread counts, opens one, assigns it, replies and
 * resolves it; the console's socket brings the member's next message into the open thread (no
 * polling while it is live). The member sees the reply and "resolved" arrive on the open screen without a reload
 * (the market socket's support events), and never sees the other member's messages.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '../support/e2e-test';
import { firstRun } from '../support/first-run';
import { solidPng } from '../support/http-funding';
import { logInPage, openConsole, registerMember, type Lang } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('tests/e2e/screenshots');
mkdirSync(shots, { recursive: true });

async function memberPage(browser: Browser, account: string, lang: Lang): Promise<Page> {
  const baseURL = e2eServer().baseURL;
  const token = await registerMember(baseURL, account);
  const ctx = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  await logInPage(page, token, account, lang);
  return page;
}

test('two members and an operator talk through customer service', async ({ browser }) => {
  const alice = await memberPage(browser, '0911000951', 'tw');
  const bob = await memberPage(browser, '0911000952', 'en');

  await alice.goto('/#/home/index');
  await alice.getByTestId('shortcut-service').click();
  await expect(alice).toHaveURL(/#\/user\/service/);
  await alice.getByTestId('chat-text').locator('textarea:not([readonly])').fill('我的入金還沒到帳');
  await alice.getByTestId('chat-send').click();
  await expect(alice.getByTestId('chat-message-member')).toHaveCount(1);
  await alice.getByTestId('chat-file').setInputFiles({
    name: 'receipt.png',
    mimeType: 'image/png',
    buffer: solidPng(16),
  });
  await expect(alice.getByTestId('chat-message-member')).toHaveCount(2);
  await expect(alice.locator('.chat-image img')).toBeVisible();

  await bob.goto('/#/user/service');
  await bob
    .getByTestId('chat-text')
    .locator('textarea:not([readonly])')
    .fill('How do I change my bank card?');
  await bob.getByTestId('chat-send').click();
  await expect(bob.getByTestId('chat-message-member')).toHaveCount(1);
  await expect(bob.getByTestId('chat-list')).not.toContainText('入金');

  // ---- the operator in the console ----
  const creds = firstRun();
  const op = await openConsole(browser);
  await op.getByTestId('admin-tab-support').click();
  const aliceRow = op.locator('[data-testid^="support-row-"]', { hasText: '0911000951' });
  const bobRow = op.locator('[data-testid^="support-row-"]', { hasText: '0911000952' });
  await expect(aliceRow).toHaveCount(1);
  await expect(bobRow).toHaveCount(1);
  await expect(aliceRow).toContainText('2'); // two unread: the text and the image
  await aliceRow.locator('[data-testid^="support-open-"]').click();
  const thread = op.getByTestId('support-thread');
  await expect(thread).toContainText('我的入金還沒到帳');
  await expect(thread).not.toContainText('bank card');
  await expect(thread.locator('[data-testid^="support-image-"]')).toHaveAttribute('data-state', 'loaded');
  await op.getByTestId('support-assign').click();
  await expect(thread).toContainText(creds.operator);
  await op
    .getByTestId('support-reply-text')
    .locator('textarea:not([readonly])')
    .fill('已收到，正在為您查詢。');
  await op.getByTestId('support-reply-send').click();
  await op.screenshot({ path: path.join(shots, 'support-console.png') });

  // Alice's open screen receives the reply over the socket, with no reload.
  await expect(alice.getByTestId('chat-message-operator')).toHaveCount(1);
  await expect(alice.getByTestId('chat-message-operator')).toContainText('已收到');

  // The console's own socket: live, so it does not poll; Alice's next message reaches the open
  // thread through the socket's event alone.
  await expect(op.getByTestId('support-live')).toHaveAttribute('data-live', 'true');
  await alice.getByTestId('chat-text').locator('textarea:not([readonly])').fill('還有一筆提款');
  await alice.getByTestId('chat-send').click();
  await expect(thread).toContainText('還有一筆提款');
  await op.getByTestId('support-resolve').click();
  await expect(alice.getByTestId('chat-resolved')).toBeVisible();
  await alice.screenshot({ path: path.join(shots, 'support-member-tw.png') });

  // Bob sees nothing of Alice's conversation.
  await expect(bob.getByTestId('chat-message-operator')).toHaveCount(0);
  await expect(bob.getByTestId('chat-list')).not.toContainText('已收到');
  await bob.screenshot({ path: path.join(shots, 'support-member-en.png') });
  await Promise.all([alice.context().close(), bob.context().close(), op.context().close()]);
});
