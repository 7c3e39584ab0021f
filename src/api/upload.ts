/**
 * Image uploads (ID photos, transfer receipts) outside the JSON API: `POST /api/vue/upload` as
 * multipart/form-data (field `purpose`, then the file field `file`), answered in the usual
 * envelope with {id, purpose, mime, bytes}; `GET /api/vue/upload/{id}` returns the bytes to the
 * owner or an operator only, so images are fetched with the token and shown as blob URLs.
 */
import type { UploadPurpose } from '../../contract/constants';
import { API_BASE, REQUEST_TIMEOUT_MS, UPLOAD_MAX_BYTES } from '../../contract/constants';
import type { UploadRes } from '../../contract/identity';

/** A refused or failed upload: `msg` is an error key (contract/errors.ts). */
export class UploadError extends Error {
  constructor(readonly msg: string) {
    super(msg);
  }
}

/**
 * Uploads one image. Throws UploadError('fileTooLarge') before sending anything over
 * UPLOAD_MAX_BYTES, and UploadError(<server key>) when the server refuses (e.g. unsupportedFileType).
 */
export async function uploadImage(token: string, purpose: UploadPurpose, file: Blob): Promise<UploadRes> {
  if (file.size > UPLOAD_MAX_BYTES) throw new UploadError('fileTooLarge');
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', file, file instanceof File ? file.name : 'image');
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), REQUEST_TIMEOUT_MS * 3);
  try {
    const res = await fetch(`${API_BASE}upload`, {
      method: 'POST',
      headers: { token },
      body: form,
      signal: ctrl.signal,
    });
    const body = (await res.json().catch(() => null)) as {
      status?: number;
      msg?: string;
      data?: UploadRes;
    } | null;
    if (!res.ok || !body || body.status !== 1 || !body.data)
      throw new UploadError(body?.msg ?? 'uploadFailed');
    return body.data;
  } catch (e) {
    if (e instanceof UploadError) throw e;
    throw new UploadError('uploadFailed');
  } finally {
    clearTimeout(timer);
  }
}

/** Fetches an upload the caller may see and returns an object URL (revoke it when done). */
export async function uploadObjectUrl(token: string, id: string): Promise<string> {
  const res = await fetch(`${API_BASE}upload/${encodeURIComponent(id)}`, { headers: { token } });
  if (!res.ok) throw new UploadError(res.status === 404 ? 'notFound' : 'uploadFailed');
  return URL.createObjectURL(await res.blob());
}
