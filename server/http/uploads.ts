/**
 * The upload routes (`POST /api/vue/upload`, `GET /api/vue/upload/:id`): the transport of
 * server/modules/identity/uploads.ts, whose docstring is the specification. Here: the multipart
 * parser (registered in its own encapsulated plugin, so the JSON routes never accept multipart
 * bodies), the session check before the body is read, the envelope of refusals and the headers
 * of a served file.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_MAX_BYTES } from '../../contract/constants';
import { ERROR_STATUS, type ErrorKey } from '../../contract/errors';
import type { AuthUser, Services } from '../modules/common/context';
import { AppError, fail } from '../modules/common/errors';
import { readUpload, storeUpload } from '../modules/identity/uploads';

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
  const { db } = services;
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
        const data = await storeUpload(services, user, purpose, file);
        return reply.send({ status: 1, msg: 'ok', data });
      },
    );

    scope.get<{ Params: { id: string } }>(
      '/api/vue/upload/:id',
      { schema: { summary: 'An uploaded image (owner or operator only)', tags: ['upload'] } },
      async (req, reply) => {
        const { mime, fileName, bytes } = await readUpload(services, users.get(req)!, req.params.id);
        return reply
          .header('content-type', mime)
          .header('content-disposition', `inline; filename="${fileName}"`)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(bytes);
      },
    );
  });
}
