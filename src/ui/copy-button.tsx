/**
 * A small "copy" button: writes `text` to the clipboard (navigator.clipboard) and says so in a
 * toast; where the clipboard is unavailable (an insecure origin, a refused permission) the toast
 * says to copy by hand instead.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { showToast } from './toast';

/** Copies `text`; resolves to true once the clipboard holds it. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyButton({ text, label, testId }: { text: string; label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Button
      size="mini"
      fill="outline"
      className="copy-button"
      style={{ marginLeft: 8 }}
      aria-label={t('clipboard.copyWhat', { what: label })}
      data-testid={testId}
      onClick={async () => {
        const ok = await copyText(text);
        showToast({ content: ok ? t('clipboard.copied', { what: label }) : t('clipboard.copyFailed') });
      }}
    >
      {t('clipboard.copy')}
    </Button>
  );
}
