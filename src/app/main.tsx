/** Entry of index.html: the member app. */
import './antd-render';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './providers';
import { createRouter } from './router';
import { createAppStore } from './store';
import { setupI18n } from './i18n';
import { setUnauthorizedHandler } from '../api/unauthorized';
import { RouterProvider } from 'react-router-dom';

setupI18n();
const store = createAppStore();
const router = createRouter();
setUnauthorizedHandler(() => void router.navigate('/login/login'));

const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('#root missing from index.html');
createRoot(rootEl).render(
  <StrictMode>
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
