/** `/user/language`: the app's two languages; choosing one applies it at once and goes back. */
import { CheckList } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { changeLang, LANGS } from '../../../lib/lang';
import { langOf, type Lang } from '../../../lib/format';
import { Page, useBack } from '../../../ui/page';

export function LanguagePage() {
  const { t, i18n } = useTranslation();
  const back = useBack();
  return (
    <Page title={t('settings.item.language')}>
      <CheckList
        value={[langOf(i18n.language)]}
        onChange={(v) => {
          const next = v[0] as Lang | undefined;
          if (!next) return;
          changeLang(next);
          back();
        }}
      >
        {LANGS.map((l) => (
          <CheckList.Item key={l} value={l} data-testid={`language-${l}`}>
            {t(`lang.${l}`)}
          </CheckList.Item>
        ))}
      </CheckList>
    </Page>
  );
}
