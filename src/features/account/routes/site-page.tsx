/**
 * `/user/agreement` (the privacy agreement) and `/user/aboutUs`: the operator-editable text of
 * common/page in the app's language, rendered as plain paragraphs (never HTML).
 */
import { useTranslation } from 'react-i18next';
import type { PageName } from '../../../../contract/common';
import { langOf } from '../../../lib/format';
import { Loading } from '../../../ui/loading';
import '../account.css';
import { Page } from '../../../ui/page';
import { useSitePageQuery } from '../api/settings-api';

function SitePage({ name }: { name: PageName }) {
  const { t, i18n } = useTranslation();
  const { data } = useSitePageQuery(name);
  const text = data?.texts.find((x) => x.lang === langOf(i18n.language));
  return (
    <Page title={text?.title ?? t(`settings.page.${name}`)}>
      {!text ? (
        <Loading />
      ) : (
        <article className="card site-page" data-testid={`page-${name}`}>
          {text.body.split(/\n{2,}/).map((p, i) => (
            <p key={i}>{p}</p>
          ))}
          {text.updatedAt && (
            <p className="muted small">{t('settings.updatedAt', { date: text.updatedAt.slice(0, 10) })}</p>
          )}
        </article>
      )}
    </Page>
  );
}

export const AgreementPage = () => <SitePage name="agreement" />;
export const AboutUsPage = () => <SitePage name="aboutUs" />;
