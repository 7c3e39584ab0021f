/**
 * An image field that uploads as soon as a file is chosen (ID photos, transfer receipts).
 *
 * A tappable box over a native `<input type="file">` (accept: the contract's image types); the
 * chosen file is previewed from a local object URL (revoked when replaced or unmounted) and sent
 * with `uploadImage` (src/api/upload.ts). The field's value is the upload id, set only once the
 * server has accepted the file; while uploading or after a refusal it is null. Refusals show the
 * translated message under the box (unsupportedFileType is checked here first, the server checks
 * the content again). A photo over UPLOAD_MAX_BYTES is made smaller here first
 * (./downscale-image.ts) rather than refused; fileTooLarge only when that fails. Works as an antd-mobile Form.Item child (value/onChange).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { UPLOAD_MIME_TYPES, type UploadPurpose } from '../../contract/constants';
import { selectSession } from '../api/session';
import { UploadError, uploadImage } from '../api/upload';
import { errorMessageKey } from '../lib/messages';
import { fitUnderLimit } from './downscale-image';
import './image-picker.css';

/** The `accept` attribute: the image types the server takes. */
export const IMAGE_ACCEPT = UPLOAD_MIME_TYPES.join(',');

export type PickerStatus = 'idle' | 'uploading' | 'done' | 'error';

/**
 * Why a file cannot be sent, checked before uploading: an error key (contract/errors.ts) or null.
 * An empty type is left to the server's content check. Size is not checked here: a file over the
 * limit is downscaled first (fitUnderLimit).
 */
export function preUploadError(file: { type: string }): string | null {
  if (file.type && !(UPLOAD_MIME_TYPES as readonly string[]).includes(file.type))
    return 'unsupportedFileType';
  return null;
}

export function ImagePicker({
  purpose,
  label,
  testId,
  onChange,
  onStatus,
}: {
  purpose: UploadPurpose;
  label: string;
  /** On the native input; `${testId}-status` carries data-status (idle/uploading/done/error). */
  testId: string;
  /** Form.Item passes the value; the box shows its own state. */
  value?: string | null;
  onChange?: (uploadId: string | null) => void;
  onStatus?: (status: PickerStatus) => void;
}) {
  const { t } = useTranslation();
  const { token } = useSelector(selectSession);
  const [preview, setPreview] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [status, setStatus] = useState<PickerStatus>('idle');
  const [error, setError] = useState<string | null>(null);
  const [broken, setBroken] = useState(false);
  const seq = useRef(0);
  const onChangeRef = useRef(onChange);
  const onStatusRef = useRef(onStatus);
  useEffect(() => {
    onChangeRef.current = onChange;
    onStatusRef.current = onStatus;
  });

  useEffect(() => {
    return () => {
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [preview]);

  const report = (s: PickerStatus) => {
    setStatus(s);
    onStatusRef.current?.(s);
  };

  const pick = async (file: File | undefined) => {
    if (!file) return;
    const mine = ++seq.current;
    setPreview(URL.createObjectURL(file));
    setFileName(file.name);
    setBroken(false);
    setError(null);
    onChangeRef.current?.(null);
    const early = preUploadError(file);
    if (early || !token) {
      setError(early ?? 'notLoggedIn');
      report('error');
      return;
    }
    report('uploading');
    const fitted = await fitUnderLimit(file);
    if (mine !== seq.current) return;
    if (!fitted) {
      setError('fileTooLarge');
      report('error');
      return;
    }
    try {
      const res = await uploadImage(token, purpose, fitted);
      if (mine !== seq.current) return;
      onChangeRef.current?.(res.id);
      report('done');
    } catch (e) {
      if (mine !== seq.current) return;
      setError(e instanceof UploadError ? e.msg : 'uploadFailed');
      report('error');
    }
  };

  return (
    <div className="image-picker">
      <label className={`image-box ${status}`}>
        {preview && !broken ? (
          <img src={preview} alt={label} onError={() => setBroken(true)} />
        ) : preview ? (
          <span className="image-name">{fileName}</span>
        ) : (
          <span className="image-empty">
            <span className="image-plus" aria-hidden="true">
              +
            </span>
            <span>{label}</span>
          </span>
        )}
        {status !== 'idle' && (
          <span className={`image-state ${status}`} data-testid={`${testId}-status`} data-status={status}>
            {t(`upload.${status}`)}
          </span>
        )}
        <input
          type="file"
          accept={IMAGE_ACCEPT}
          data-testid={testId}
          aria-label={label}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            void pick(file);
          }}
        />
      </label>
      {error && (
        <div className="field-error" role="alert" data-testid={`${testId}-error`}>
          {t(errorMessageKey(error))}
        </div>
      )}
    </div>
  );
}
