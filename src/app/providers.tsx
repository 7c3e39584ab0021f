/** Redux, i18n and antd-mobile locale providers shared by the member app and the console. */
import { ConfigProvider } from 'antd-mobile';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Provider } from 'react-redux';
import type { Store } from '@reduxjs/toolkit';
import i18next from 'i18next';
import { antdLocaleOf } from './i18n';

/** antd-mobile follows the app language (its locale arrives in the same chunk as the strings). */
function LocaleBridge({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const locale = antdLocaleOf(i18n.language);
  return <ConfigProvider {...(locale ? { locale } : {})}>{children}</ConfigProvider>;
}

/** The store, i18next and antd-mobile's locale around an app's root. */
export function AppProviders({ store, children }: { store: Store; children: ReactNode }) {
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18next}>
        <LocaleBridge>{children}</LocaleBridge>
      </I18nextProvider>
    </Provider>
  );
}
