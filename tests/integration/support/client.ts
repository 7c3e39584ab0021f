/**
 * One way to call the API for the cross-cutting integration tests, whether the server runs
 * in-process (`app.inject`) or as a child process over HTTP (crash-recovery test): JSON endpoints
 * with extra headers (the idempotency key), multipart uploads built by hand, and fetching an
 * upload's bytes.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { EndpointName } from '../../../contract/api';
import type { UploadPurpose } from '../../../contract/constants';

/** An answer of a JSON endpoint: the HTTP status and the envelope. */
export interface Answer {
  http: number;
  body: { status: number; msg: string; data: any };
}

/** A raw HTTP answer: status, headers and body bytes. */
export interface RawAnswer {
  http: number;
  headers: Record<string, unknown>;
  bytes: Buffer;
}

/** Sends one request; `payload` is the exact body (string or bytes). */
export type Transport = (req: {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}) => Promise<RawAnswer>;

/** A file part of a multipart upload. */
export interface FilePart {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

/** The API as the tests use it. */
export interface ApiClient {
  transport: Transport;
  /** POST /api/vue/{name} with a JSON body (an object, or a string sent as is). */
  call(name: EndpointName, body: unknown, token?: string, headers?: Record<string, string>): Promise<Answer>;
  /** POST /api/vue/upload: `fields` first (e.g. purpose), then the file part if given. */
  upload(token: string | undefined, fields: Record<string, string>, file?: FilePart): Promise<Answer>;
  /** GET /api/vue/upload/{id}. */
  fetchUpload(id: string, token?: string): Promise<RawAnswer>;
}

/** A fresh idempotency key (a UUID: 36 characters of [0-9a-f-]). */
export const newKey = (): string => randomUUID();

/** Headers carrying an idempotency key. */
export const idem = (key: string = newKey()): Record<string, string> => ({ 'idempotency-key': key });

/**
 * A multipart/form-data body built by hand: each field, then the file part. Returns the body and
 * its content-type header (with the boundary).
 */
export function multipart(
  fields: Record<string, string>,
  file?: FilePart,
  fileField = 'file',
): { body: Buffer; contentType: string } {
  const boundary = `----twtrade${randomUUID().replace(/-/g, '')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function parseJson(bytes: Buffer): Answer['body'] {
  try {
    return JSON.parse(bytes.toString('utf8')) as Answer['body'];
  } catch {
    return { status: -1, msg: `not JSON: ${bytes.toString('utf8').slice(0, 200)}`, data: null };
  }
}

/** Builds the client on a transport. */
export function apiClient(transport: Transport): ApiClient {
  return {
    transport,
    async call(name, body, token, headers = {}) {
      const res = await transport({
        method: 'POST',
        url: `/api/vue/${name}`,
        headers: { 'content-type': 'application/json', ...(token ? { token } : {}), ...headers },
        payload: typeof body === 'string' ? body : JSON.stringify(body ?? {}),
      });
      return { http: res.http, body: parseJson(res.bytes) };
    },
    async upload(token, fields, file) {
      const { body, contentType } = multipart(fields, file);
      const res = await transport({
        method: 'POST',
        url: '/api/vue/upload',
        headers: { 'content-type': contentType, ...(token ? { token } : {}) },
        payload: body,
      });
      return { http: res.http, body: parseJson(res.bytes) };
    },
    fetchUpload(id, token) {
      return transport({
        method: 'GET',
        url: `/api/vue/upload/${encodeURIComponent(id)}`,
        headers: token ? { token } : {},
      });
    },
  };
}

/** In-process: Fastify's `inject` (no socket). */
export function injectClient(app: FastifyInstance): ApiClient {
  return apiClient(async ({ method, url, headers, payload }) => {
    const res = await app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
    return { http: res.statusCode, headers: res.headers, bytes: res.rawPayload };
  });
}

/**
 * Over HTTP to `baseUrl` (a child-process server). A connection error rejects (the caller decides
 * whether the request may be retried).
 */
export function httpClient(baseUrl: string): ApiClient {
  return apiClient(async ({ method, url, headers, payload }) => {
    const res = await fetch(baseUrl + url, {
      method,
      headers,
      ...(payload !== undefined
        ? { body: typeof payload === 'string' ? payload : new Uint8Array(payload) }
        : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { http: res.status, headers: Object.fromEntries(res.headers), bytes };
  });
}

/** Uploads a file for `purpose`; returns the upload id or throws with the envelope. */
export async function uploadOk(
  c: ApiClient,
  token: string,
  purpose: UploadPurpose,
  file: FilePart,
): Promise<string> {
  const r = await c.upload(token, { purpose }, file);
  if (r.body.status !== 1) throw new Error(`upload failed: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data.id as string;
}
