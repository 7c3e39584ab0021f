/**
 * Image uploads outside the JSON API (ID photos, transfer receipts; issue 4 item 1):
 *
 * - `POST /api/vue/upload`, multipart/form-data with the field `purpose` (contract UPLOAD_PURPOSES)
 *   and the file field `file`; the session token in the `token` header as for the JSON API.
 *   Members only: an operator's session is refused 403 forbidden (operators never act as members),
 *   except for purpose `newsCover` (a news article's cover), which only an operator may upload.
 *   At most UPLOAD_MAX_BYTES (else 400 fileTooLarge). The type is detected from the content
 *   (file-type's magic numbers), never from the file name or the part's content type, and must be
 *   one of UPLOAD_MIME_TYPES (else 400 unsupportedFileType); then the image is decoded in full
 *   and re-encoded by `reencodeImage` (a file that only starts like an image, e.g. PNG magic
 *   bytes followed by a script, fails to decode: 400 unsupportedFileType). What is stored is the
 *   re-encoded image: no metadata (EXIF GPS, camera serials), no bytes after the image. The file
 *   is stored as `${DATA_DIR}/uploads/<id>` (id: 32 random hex characters; mode 0600), outside
 *   any public path, with an `uploads` row (`bytes`: the stored size; `sha256`: of the bytes the
 *   member sent; for a receipt, `pixels_sha256` and `phash` of the decoded picture,
 *   funds/receipt-fingerprint.ts). Answer: the envelope with contract/identity.ts uploadRes.
 * - `GET /api/vue/upload/:id`: the bytes, to the owner or an operator/admin only (anyone else:
 *   404 notFound, so ids reveal nothing), with `content-type` the stored type,
 *   `content-disposition: inline; filename="<id>.<ext>"`, `cache-control: private, no-store`,
 *   `x-content-type-options: nosniff` and `content-security-policy: default-src 'none'; sandbox`
 *   (opened on its own, the file can run nothing and reach nothing).
 *
 * HEIC is not accepted: sharp's prebuilt libvips decodes AVIF but not HEVC-coded HEIC, and an
 * iPhone's browser converts a HEIC photo to JPEG for `<input type=file accept="image/jpeg,…">`
 * when HEIC is not in the accepted list.
 *
 * Every refusal is a 4xx envelope (401 notLoggedIn/sessionExpired without a valid session) and
 * writes nothing: no row, no file. The multipart parser is registered in its own encapsulated
 * plugin, so the JSON routes never accept multipart bodies.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import {
  UPLOAD_MAX_BYTES,
  UPLOAD_MIME_TYPES,
  UPLOAD_PURPOSES,
  type UploadPurpose,
} from '../../../contract/constants';
import { ERROR_STATUS, type ErrorKey } from '../../../contract/errors';
import { uploadIdSchema, type UploadRes } from '../../../contract/identity';
import { uploads } from '../../db/schema';
import type { AuthUser, Services } from '../common/context';
import { AppError, fail } from '../common/errors';
import { receiptFingerprint } from '../funds/receipt-fingerprint';

/** Uploads one member may make in 24 hours: bounds the disk a single account can fill. */
export const UPLOADS_PER_DAY_MAX = 200;

type UploadMime = (typeof UPLOAD_MIME_TYPES)[number];

/** The accepted type of a content-detected mime, or null. */
function acceptedMime(detected: string | undefined): UploadMime | null {
  return (UPLOAD_MIME_TYPES as readonly string[]).includes(detected ?? '') ? (detected as UploadMime) : null;
}

/**
 * Largest image accepted, in pixels: a 48-megapixel phone photo fits; a small file that claims
 * 50,000 × 50,000 pixels (a decompression bomb) is refused before it is decoded.
 */
export const UPLOAD_MAX_PIXELS = 50_000_000;
/** Longest side, in pixels, of a stored image: enough to read an ID card or a receipt. */
export const UPLOAD_MAX_SIDE_PX = 3_000;

const SHARP_FORMAT: Record<UploadMime, 'jpeg' | 'png' | 'webp'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/**
 * Decodes `bytes` in full as `mime` (sharp/libvips) and encodes the image again in the same
 * format: turned upright by its EXIF orientation, at most UPLOAD_MAX_SIDE_PX on its longer side,
 * with every metadata block (EXIF, XMP, ICC, comments) and any trailing bytes dropped.
 * @throws AppError unsupportedFileType (400) when the bytes do not decode as that format (a
 *   corrupt, truncated or disguised file) or exceed UPLOAD_MAX_PIXELS.
 */
export async function reencodeImage(bytes: Buffer, mime: UploadMime): Promise<Buffer> {
  const format = SHARP_FORMAT[mime];
  try {
    const image = sharp(bytes, { failOn: 'truncated', limitInputPixels: UPLOAD_MAX_PIXELS, pages: 1 });
    const meta = await image.metadata();
    if (meta.format !== format) throw fail('unsupportedFileType');
    const out = image.rotate().resize({
      width: UPLOAD_MAX_SIDE_PX,
      height: UPLOAD_MAX_SIDE_PX,
      fit: 'inside',
      withoutEnlargement: true,
    });
    if (format === 'jpeg') return await out.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    if (format === 'png') return await out.png({ compressionLevel: 9 }).toBuffer();
    return await out.webp({ quality: 90 }).toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw fail('unsupportedFileType');
  }
}

const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/**
 * sha256 (hex) of an upload's bytes exactly as the member sent them, taken before any
 * re-encoding: receipts are matched by it (funds/handlers.ts), so the same file sent twice has the
 * same hash whatever the server stores.
 */
export function receivedSha256(sent: Buffer): string {
  return createHash('sha256').update(sent).digest('hex');
}

/** Where an upload's bytes live. `id` has been checked against uploadIdSchema. */
export function uploadPath(dataDir: string, id: string): string {
  return path.join(dataDir, 'uploads', id);
}

function sendError(reply: FastifyReply, key: ErrorKey, http: number = ERROR_STATUS[key]) {
  return reply.code(http).send({ status: 0, msg: key, data: null });
}

const errorCode = (err: unknown) =>
  err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : '';

/** Reads the multipart body: the `purpose` field and the first `file` part (at most the size limit). */
async function readForm(
  req: FastifyRequest,
): Promise<{ purpose: string | undefined; file: Buffer | undefined }> {
  if (!req.isMultipart()) throw fail('parameterError');
  let purpose: string | undefined;
  let file: Buffer | undefined;
  try {
    const parts = req.parts({
      limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, fieldSize: 256, parts: 5 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'purpose' && typeof part.value === 'string') purpose = part.value;
      } else if (part.fieldname === 'file' && !file) {
        file = await part.toBuffer();
      } else {
        part.file.resume();
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (errorCode(err) === 'FST_REQ_FILE_TOO_LARGE') throw fail('fileTooLarge');
    // Too many parts or files, a malformed body: the caller's mistake.
    throw fail('parameterError');
  }
  return { purpose, file };
}

/** Registers POST /api/vue/upload and GET /api/vue/upload/:id (see the module docstring). */
export async function registerUploadRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, config } = services;
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, fieldSize: 256, parts: 5 },
    });
    const users = new WeakMap<FastifyRequest, AuthUser>();

    scope.setErrorHandler((error: Error & { statusCode?: number }, req, reply) => {
      if (error instanceof AppError) return sendError(reply, error.key);
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
        return sendError(reply, 'parameterError');
      req.log.error({ err: error }, 'upload failed');
      return sendError(reply, 'uploadFailed', 500);
    });

    // The session is checked before the body is read: no session, nothing is parsed.
    scope.addHook('onRequest', async (req, reply) => {
      const token = typeof req.headers.token === 'string' && req.headers.token ? req.headers.token : null;
      if (!token) return sendError(reply, 'notLoggedIn');
      const found = await services.sessions.authenticate(db, token);
      if (found === 'expired') return sendError(reply, 'sessionExpired');
      if (!found) return sendError(reply, 'notLoggedIn');
      users.set(req, found);
    });

    scope.post(
      '/api/vue/upload',
      { schema: { summary: 'Upload an image (multipart)', tags: ['upload'] } },
      async (req, reply) => {
        const user = users.get(req)!;
        const { purpose, file } = await readForm(req);
        // Uploads are a member's evidence (ID photos, receipts); operators only look at them.
        // A news cover is the one upload of an operator, and never a member's.
        if ((purpose === 'newsCover') !== (user.role !== 'member')) throw fail('forbidden');
        if (!purpose || !(UPLOAD_PURPOSES as readonly string[]).includes(purpose))
          throw fail('parameterError');
        if (!file || file.length === 0) throw fail('parameterError');
        if (file.length > UPLOAD_MAX_BYTES) throw fail('fileTooLarge');
        const mime = acceptedMime((await fileTypeFromBuffer(file))?.mime);
        if (!mime) throw fail('unsupportedFileType');
        const stored = await reencodeImage(file, mime);

        // Before any re-encoding: receipts are matched by the picture the member sent.
        const received = receivedSha256(file);
        const fingerprint = purpose === 'receipt' ? await receiptFingerprint(file) : null;
        const [recent] = await db
          .select({ n: count() })
          .from(uploads)
          .where(and(eq(uploads.userId, user.id), gt(uploads.createdAt, sql`now() - interval '1 day'`)));
        if (recent!.n >= UPLOADS_PER_DAY_MAX) throw fail('tooFrequent');

        const id = randomBytes(16).toString('hex');
        const dir = path.join(config.dataDir, 'uploads');
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const file_ = uploadPath(config.dataDir, id);
        await writeFile(file_, stored, { mode: 0o600, flag: 'wx' });
        try {
          await db.insert(uploads).values({
            id,
            userId: user.id,
            purpose: purpose as UploadPurpose,
            mime,
            bytes: stored.length,
            sha256: received,
            receivedSha256: received,
            pixelsSha256: fingerprint?.pixelsSha256 ?? null,
            phash: fingerprint?.phash ?? null,
          });
        } catch (err) {
          await unlink(file_).catch(() => undefined);
          throw err;
        }
        const data: UploadRes = { id, purpose: purpose as UploadPurpose, mime, bytes: stored.length };
        return reply.send({ status: 1, msg: 'ok', data });
      },
    );

    scope.get<{ Params: { id: string } }>(
      '/api/vue/upload/:id',
      { schema: { summary: 'An uploaded image (owner or operator only)', tags: ['upload'] } },
      async (req, reply) => {
        const user = users.get(req)!;
        const id = req.params.id;
        if (!uploadIdSchema.safeParse(id).success) throw fail('notFound');
        const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
        if (!row || (row.userId !== user.id && user.role === 'member')) throw fail('notFound');
        let bytes: Buffer;
        try {
          bytes = await readFile(uploadPath(config.dataDir, id));
        } catch (err) {
          if (errorCode(err) === 'ENOENT') throw fail('notFound');
          throw err;
        }
        return reply
          .header('content-type', row.mime)
          .header('content-disposition', `inline; filename="${id}.${EXTENSION[row.mime] ?? 'bin'}"`)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(bytes);
      },
    );
  });
}
