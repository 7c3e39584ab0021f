/** Redux, i18n and antd-mobile locale providers shared by the member app and the console. */
import { ConfigProvider } from 'antd-mobile';
import enUS from 'antd-mobile/es/locales/en-US';
import zhTW from 'antd-mobile/es/locales/zh-TW';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Provider } from 'react-redux';
import type { Store } from '@reduxjs/toolkit';
import i18next from 'i18next';

function LocaleBridge({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <ConfigProvider locale={i18n.language === 'en' ? enUS : zhTW}>{children}</ConfigProvider>;
}

export function AppProviders({ store, children }: { store: Store; children: ReactNode }) {
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18next}>
        <LocaleBridge>{children}</LocaleBridge>
      </I18nextProvider>
    </Provider>
  );
}
