/**
 * The open overlay a back press closes first (product-spec §4 "Hybrid app back button": a phone's
 * back closes the sheet or dialog on screen before it leaves the screen).
 *
 * Overlays are antd-mobile's: every Dialog, Popup, CenterPopup and ActionSheet draws an
 * `.adm-mask` while it is open (a closed one keeps its mask in the DOM with `display: none`, or
 * removes it). A toast draws one too (`.adm-toast-mask`) but is not an overlay a press closes: the
 * exit hint itself is a toast. No bookkeeping in the screens that open them:
 * - a dialog (`.adm-dialog`; the app's are Dialog.confirm) is answered with its first action, as
 *   a tap there would: a confirm's cancel (its promise resolves false), an alert's only button;
 * - a popup or sheet is closed through its own mask, as a tap on the mask would (`onMaskClick`).
 * Plain DOM clicks: nothing of antd-mobile is loaded for it (the shell that calls this is on the
 * first screen).
 */

/** Whether `el` is drawn (a closed overlay's mask has `display: none`: no boxes). */
const drawn = (el: Element) => el.getClientRects().length > 0;

/** Closes the topmost open overlay; false when none is open (the press is then a navigation). */
export function closeTopOverlay(doc: Document = document): boolean {
  // A dialog first, found by itself: its mask may be absent (seen in Chromium while a toast shows).
  const dialog = [...doc.querySelectorAll('.adm-dialog')].filter(drawn).at(-1);
  if (dialog) {
    dialog.querySelector<HTMLElement>('.adm-dialog-footer .adm-dialog-button')?.click();
    return true;
  }
  const mask = [...doc.querySelectorAll<HTMLElement>('.adm-mask:not(.adm-toast-mask)')].filter(drawn).at(-1);
  mask?.click();
  return mask !== undefined;
}
