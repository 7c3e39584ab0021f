/**
 * Placing an order from the ticket in end-to-end tests, as a member with the default confirmation
 * threshold does it (features/account confirm-above.tsx): tap the button; when the order's total
 * required reaches NT$100,000 the app asks first, and the member confirms with the dialog's button
 * (labelled as the ticket's). tests/e2e/confirm-threshold.spec.ts tests the dialog itself.
 */
import { expect, type Page } from '@playwright/test';
import { CONFIRM_ABOVE_DEFAULT_MINOR, confirmNeeded } from '../../contract/account';

/** "1,234,567.89" → minor units, exactly. */
function previewMinor(text: string): number {
  const m = /([\d,]+)\.(\d{2})/.exec(text);
  if (!m) throw new Error(`no money value in ${JSON.stringify(text)}`);
  return Number(m[1]!.replace(/,/g, '')) * 100 + Number(m[2]);
}

/** Taps the ticket's submit button and confirms the dialog when the order is asked about. */
export async function submitOrder(page: Page, thresholdMinor = CONFIRM_ABOVE_DEFAULT_MINOR): Promise<void> {
  const required = previewMinor((await page.getByTestId('order-preview-required').textContent()) ?? '');
  const submit = page.getByTestId('order-submit');
  const label = (await submit.textContent())!.trim();
  await submit.click();
  if (!confirmNeeded(required, thresholdMinor)) return;
  await expect(page.getByTestId('confirm-above')).toBeVisible();
  await page.locator('.adm-dialog-footer').getByRole('button', { name: label, exact: true }).click();
}
