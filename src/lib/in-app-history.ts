/**
 * The app's own history, as react-router's hash router records it: each entry it pushes carries
 * `idx` (0 for the entry the app opened on) in `history.state`. Going back with no history falls
 * back to HOME_PATH (product-spec §2 "Going back with no history falls back to /home/index").
 */

/** Where back goes when there is nowhere to go back to (product-spec §2). */
export const HOME_PATH = '/home/index';

/** True when the current entry was pushed by the app (idx > 0): `navigate(-1)` stays in the app. */
export function hasInAppHistory(): boolean {
  const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
  return idx > 0;
}
