/**
 * The open overlay a back press closes first (product-spec §4 "Hybrid app back button": a phone's
 * back closes the sheet or dialog on screen before it leaves the screen).
 *
 * Overlays are antd-mobile's: every Dialog, Popup, CenterPopup and ActionSheet draws an
 * `.adm-mask` while it is open (a closed one keeps its mask in the DOM with `display: none`, or
 * removes it). A toast draws one too (`.adm-toast-mask`) but is not an overlay a press closes: the
 * exit hint itself is a toast. No bookkeeping in the screens that open them:
 * - an imperative dialog (Dialog.confirm / alert, `.adm-dialog`) is closed with Dialog.clear(),
 *   which antd-mobile answers as a cancel (the confirm's promise resolves false);
 * - a controlled popup is closed through its own mask, as a tap on the mask would
 *   (its `onMaskClick`).
 * Dialog.clear is loaded on demand (./dialog-clear.ts): the shell that calls this is on the first
 * screen, and an open dialog means its module is loaded already.
 */

/** Whether `el` is drawn (a closed overlay's mask has `display: none`: no boxes). */
const drawn = (el: Element) => el.getClientRects().length > 0;

/** Closes the topmost open overlay; false when none is open (the press is then a navigation). */
export function closeTopOverlay(doc: Document = document): boolean {
  const masks = [...doc.querySelectorAll<HTMLElement>('.adm-mask:not(.adm-toast-mask)')].filter(drawn);
  if (masks.length === 0) return false;
  if ([...doc.querySelectorAll('.adm-dialog')].some(drawn))
    void import('./dialog-clear').then((m) => m.clearDialogs());
  else masks.at(-1)!.click();
  return true;
}
