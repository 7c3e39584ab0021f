/** Entry of admin.html: the operator console (same i18n and API layer as the member app). */
import '../lib/zod-no-eval';
import '../app/antd-render';
import '../app/styles.css';
import './admin.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setUnauthorizedHandler } from '../api/unauthorized';
import { ensureAllStrings, extendLocales, setupI18n } from '../app/i18n';
import { AppProviders } from '../app/providers';
import { createAppStore } from '../app/store';
import { AdminApp } from './admin-app';

// The spec's keys with an `admin_` prefix (admin_tokend, …): an operator login never replaces a
// member session kept in the same browser.
const store = createAppStore({ storagePrefix: 'admin_' });
// The session is already cleared on 401; the console then shows its login form.
setUnauthorizedHandler(() => undefined);

const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('#root missing from admin.html');
// The console's own strings (admin.*) load with each language; the member app never fetches them.
extendLocales({
  tw: () => import('../../locales/admin/tw.json'),
  en: () => import('../../locales/admin/en.json'),
});
// Render once the language's strings are in (as the member app does), so no key ever flashes.
void setupI18n()
  .then(() => ensureAllStrings())
  .then(() => {
    createRoot(rootEl).render(
      <StrictMode>
        <AppProviders store={store}>
          <AdminApp />
        </AppProviders>
      </StrictMode>,
    );
  });
