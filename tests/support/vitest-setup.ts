/**
 * Vitest setup for every test file; for screen tests (jsdom) only:
 * - antd-mobile's motion is reduced (`reduceMotion`: react-spring skips to each animation's end),
 *   so a dialog or popup opens and closes, and unmounts, at once. With motion on, a closing
 *   dialog unmounts only when its spring comes to rest on jsdom's emulated frames, which on a
 *   starved CPU can miss a test's wait and leave the dialog in the next test's DOM.
 * - testing-library's `waitFor` and `findBy*` wait up to 5 s instead of 1 s. They return as soon
 *   as the condition holds, so a passing test is no slower; the longer bound keeps a test that
 *   renders on a starved CPU (two cores shared by vitest's workers and the PGlite suites) from
 *   failing on time alone.
 * - antd-mobile's imperative components (Toast, Dialog) render through React 19's root API, as
 *   src/ui/antd-render.ts sets it up in the app (here on the copy of antd-mobile tests load).
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
  const { reduceMotion, unstableSetRender } = await import('antd-mobile');
  reduceMotion();
  const { createRoot } = await import('react-dom/client');
  unstableSetRender((node, container) => {
    const root = createRoot(container);
    root.render(node);
    return async () => root.unmount();
  });
}

export {};
