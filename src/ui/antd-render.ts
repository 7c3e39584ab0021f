/**
 * antd-mobile 5 on React 19: its imperative APIs (Toast, Dialog) render nothing unless given a
 * createRoot-based render function (ARCHITECTURE.md "Known pitfalls"). Imported by the entries
 * (src/app/antd-render.ts) and by the lazily loaded Toast (./toast-impl.ts), whichever runs
 * first. The setter comes from antd's own module (the one its index re-exports).
 */
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot, type Root } from 'react-dom/client';

type Container = (Element | DocumentFragment) & { __admRoot?: Root };

unstableSetRender((node, container) => {
  const c = container as Container;
  c.__admRoot ??= createRoot(container);
  const root = c.__admRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete c.__admRoot;
  };
});
