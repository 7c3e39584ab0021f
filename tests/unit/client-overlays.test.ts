// @vitest-environment jsdom
/**
 * src/ui/overlays.ts: which overlay a back press closes. jsdom lays nothing out, so "drawn" is
 * given per element (getClientRects); the dialog path (Dialog.clear on demand) runs against a
 * real antd-mobile Dialog.confirm in tests/e2e/hybrid-shell.spec.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeTopOverlay } from '../../src/ui/overlays';

const clearDialogs = vi.fn();
vi.mock('../../src/ui/dialog-clear', () => ({ clearDialogs: () => clearDialogs() }));

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
  clearDialogs.mockClear();
});

describe('closeTopOverlay', () => {
  it('does nothing and says so when no overlay is drawn (a closed one keeps its hidden mask)', () => {
    const hidden = add('adm-mask', false);
    const click = vi.fn();
    hidden.addEventListener('click', click);
    expect(closeTopOverlay()).toBe(false);
    expect(click).not.toHaveBeenCalled();
    expect(clearDialogs).not.toHaveBeenCalled();
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
    expect(clearDialogs).not.toHaveBeenCalled();
  });

  it('closes an imperative dialog with Dialog.clear, not through its mask', async () => {
    const mask = add('adm-mask', true);
    add('adm-dialog', true);
    const click = vi.fn();
    mask.addEventListener('click', click);
    expect(closeTopOverlay()).toBe(true);
    await vi.waitFor(() => expect(clearDialogs).toHaveBeenCalledTimes(1));
    expect(click).not.toHaveBeenCalled();
  });
});
