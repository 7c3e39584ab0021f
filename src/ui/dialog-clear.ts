/** antd-mobile's Dialog.clear() on its own, for ./overlays.ts to load on demand. */
import { Dialog } from 'antd-mobile';

/** Closes every imperative dialog (each confirm resolves false, as a cancel). */
export function clearDialogs(): void {
  Dialog.clear();
}
