/**
 * Build-time only (vite.config.ts `staticShell`, through Vite's SSR loader): the landing screen's
 * markup as the app's first render draws it for a guest, so index.html can paint it before any
 * script has run. It is the real route table (`AppRoutes`, the shell and /login/start) under the
 * app's own providers, prerendered with react-dom/static (which waits for the lazy chunks),
 * with no site configuration yet (its request starts in the browser), exactly like React's first
 * frame in the browser.
 */
import type { ResourceKey } from 'i18next';
import i18next from 'i18next';
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from 'react-router-dom';
import type { Lang } from '../lib/format';
import { setupI18n } from './i18n';
import { AppProviders } from './providers';
import { AppRoutes } from './router';
import { createAppStore } from './store';

/** The landing route, as src/app/router.tsx redirects `/` to it. */
const LANDING_PATH = '/login/start';

/**
 * The landing screen's HTML in `lang`, with `strings` the language's first-screen strings
 * (locales/{lang}.json). Resolves once every lazy part has rendered.
 */
export async function renderLandingShell(lang: Lang, strings: ResourceKey): Promise<string> {
  await setupI18n(lang, { [lang]: strings });
  if (!i18next.hasResourceBundle(lang, 'translation'))
    i18next.addResourceBundle(lang, 'translation', strings, true, true);
  await i18next.changeLanguage(lang);
  const { prelude } = await prerenderToNodeStream(
    <AppProviders store={createAppStore()}>
      <MemoryRouter initialEntries={[LANDING_PATH]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
