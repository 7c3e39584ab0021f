/**
 * The account feature's public entry (lint `boundaries/imports` refuses other features' imports of
 * its other files): `useConfirmAbove`, the dialog that confirms an order, a cancel or an exchange
 * worth at least the member's confirmation threshold (`ConfirmRequest`: its worth in TWD minor
 * units and the rows shown; resolves to whether to go on), and `useLiveAccountSummary`, the
 * account summary with its holdings marked to the live quotes (TWD minor units).
 */
export { useConfirmAbove, type ConfirmRequest } from './components/confirm-above';
export { useLiveAccountSummary } from './live-account';
