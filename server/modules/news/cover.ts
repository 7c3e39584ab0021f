/**
 * `GET /api/vue/news/cover/:id`: the cover image of published article `id`, to anyone (a news
 * cover is public content, unlike the members' own uploads, which uploads.ts serves to their
 * owner and operators only). The bytes are the upload's, stored re-encoded by the upload checks
 * (server/modules/identity/uploads.ts: content-detected type, full decode, metadata dropped).
 * Anything else (unknown or withdrawn article, no cover, missing file) answers 404 notFound.
 */
import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { newsArticles, uploads } from '../../db/schema';
import type { Services } from '../common/context';
import { uploadPath } from '../identity/uploads';

const notFound = { status: 0, msg: 'notFound', data: null };

/** Registers the public cover route (see the module docstring). */
export function registerNewsCoverRoute(app: FastifyInstance, { db, config }: Services): void {
  app.get<{ Params: { id: string } }>(
    '/api/vue/news/cover/:id',
    { schema: { summary: "A published news article's cover image", tags: ['news'] } },
    async (req, reply) => {
      const id = Number(req.params.id);
      if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return reply.code(404).send(notFound);
      const [row] = await db
        .select({ uploadId: uploads.id, mime: uploads.mime })
        .from(newsArticles)
        .innerJoin(uploads, eq(uploads.id, newsArticles.coverUploadId))
        .where(and(eq(newsArticles.id, id), eq(newsArticles.status, 'published')));
      if (!row) return reply.code(404).send(notFound);
      let bytes: Buffer;
      try {
        bytes = await readFile(uploadPath(config.dataDir, row.uploadId));
      } catch {
        return reply.code(404).send(notFound);
      }
      return reply
        .header('content-type', row.mime)
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(bytes);
    },
  );
}
