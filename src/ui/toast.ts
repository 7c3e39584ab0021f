/**
 * antd-mobile's Toast, loaded on first use. Toast brings its mask and react-spring (about 19 KiB
 * gzip) and the UI kit's `ui` chunk, which the first screen never needs (the sign-in screen never
 * loads `ui`): main.tsx preloads it at the first touch or key, and a toast asked for before that
 * shows as soon as the chunk is in.
 */
import type { Toast as AntdToast, ToastShowProps } from 'antd-mobile';

let toast: typeof AntdToast | null = null;
let loading: Promise<void> | null = null;

/** Fetches the Toast chunk (once); resolves when `showToast` is synchronous. */
export function preloadToast(): Promise<void> {
  loading ??= import('./toast-impl').then((m) => {
    toast = m.Toast;
  });
  return loading;
}

/** `Toast.show(props)`, at once when loaded, else right after the chunk arrives. */
export function showToast(props: ToastShowProps): void {
  if (toast) {
    toast.show(props);
    return;
  }
  void preloadToast().then(() => toast?.show(props));
}
