/**
 * The QR code of the invite link: product-spec §9 "QR code default 256 by 256 at the highest
 * error correction" (level H). Drawn by the `qrcode` npm library, imported on first render so it
 * never joins the first-screen bundle (the invite screen is itself a lazy route).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The spec's default QR size (px) and error-correction level. */
export const QR_SIZE = 256;
export const QR_LEVEL = 'H';

export function InviteQr({ text }: { text: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((m) => m.toDataURL(text, { errorCorrectionLevel: QR_LEVEL, width: QR_SIZE, margin: 2 }))
      .then((url) => {
        if (live) setSrc(url);
      });
    return () => {
      live = false;
    };
  }, [text]);
  return (
    <div className="invite-qr">
      {src ? (
        <img src={src} width={QR_SIZE} height={QR_SIZE} alt={t('invite.qrAlt')} data-testid="invite-qr" />
      ) : (
        <div style={{ width: QR_SIZE, height: QR_SIZE }} />
      )}
    </div>
  );
}
