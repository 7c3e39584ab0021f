// @vitest-environment jsdom
/**
 * src/ui/overlays.ts: which overlay a back press closes. jsdom lays nothing out, so "drawn" is
 * given per element (getClientRects); a real antd-mobile Dialog.confirm closed by the back button
 * is in tests/e2e/hybrid-shell.spec.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeTopOverlay } from '../../src/ui/overlays';

/** An element of `className` appended to the body, drawn or not (display: none). */
function add(className: string, drawn: boolean): HTMLElement {
  const el = document.createElement('div');
  el.className = className;
  el.getClientRects = () => (drawn ? [new DOMRect(0, 0, 390, 844)] : []) as unknown as DOMRectList;
  document.body.append(el);
  return el;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('closeTopOverlay', () => {
  it('does nothing and says so when no overlay is drawn (a closed one keeps its hidden mask)', () => {
    const hidden = add('adm-mask', false);
    const click = vi.fn();
    hidden.addEventListener('click', click);
    expect(closeTopOverlay()).toBe(false);
    expect(click).not.toHaveBeenCalled();
  });

  it('leaves a toast alone (its mask is drawn, but a back press is not for it)', () => {
    const toast = add('adm-mask adm-toast-mask', true);
    const click = vi.fn();
    toast.addEventListener('click', click);
    expect(closeTopOverlay()).toBe(false);
    expect(click).not.toHaveBeenCalled();
  });

  it('closes a popup through its mask, the topmost of two', () => {
    const lower = add('adm-mask', true);
    const upper = add('adm-mask', true);
    const clicks: string[] = [];
    lower.addEventListener('click', () => clicks.push('lower'));
    upper.addEventListener('click', () => clicks.push('upper'));
    expect(closeTopOverlay()).toBe(true);
    expect(clicks).toEqual(['upper']);
  });

  it('answers a drawn dialog even when its mask is missing (a toast showing beside it)', () => {
    add('adm-mask adm-toast-mask', true);
    const dialog = add('adm-dialog', true);
    dialog.innerHTML = '<div class="adm-dialog-footer"><button class="adm-dialog-button"></button></div>';
    const click = vi.fn();
    dialog.querySelector('button')!.addEventListener('click', click);
    expect(closeTopOverlay()).toBe(true);
    expect(click).toHaveBeenCalledTimes(1);
  });

  it("answers a dialog with its first action (a confirm's cancel), not through its mask", () => {
    const mask = add('adm-mask', true);
    const dialog = add('adm-dialog', true);
    dialog.innerHTML =
      '<div class="adm-dialog-footer"><div class="adm-dialog-action-row">' +
      '<button class="adm-dialog-button" data-k="cancel"></button>' +
      '<button class="adm-dialog-button" data-k="confirm"></button></div></div>';
    const clicks: string[] = [];
    dialog.addEventListener('click', (e) => clicks.push((e.target as HTMLElement).dataset.k ?? 'dialog'));
    mask.addEventListener('click', () => clicks.push('mask'));
    expect(closeTopOverlay()).toBe(true);
    expect(clicks).toEqual(['cancel']);
  });
});
