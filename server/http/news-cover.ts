/**
 * `GET /api/vue/news/cover/:id`: the cover image of published article `id`, to anyone
 * (server/modules/news/cover.ts `publishedCover`); anything else answers 404 notFound.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../modules/common/context';
import { publishedCover } from '../modules/news/cover';

const notFound = { status: 0, msg: 'notFound', data: null };

/** Registers the public cover route (see the module docstring). */
export function registerNewsCoverRoute(app: FastifyInstance, services: Services): void {
  app.get<{ Params: { id: string } }>(
    '/api/vue/news/cover/:id',
    { schema: { summary: "A published news article's cover image", tags: ['news'] } },
    async (req, reply) => {
      const cover = await publishedCover(services, req.params.id);
      if (!cover) return reply.code(404).send(notFound);
      return reply
        .header('content-type', cover.mime)
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(cover.bytes);
    },
  );
}
