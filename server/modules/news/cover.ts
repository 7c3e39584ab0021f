/**
 * The cover image of a published news article, to anyone (a news cover is public content, unlike
 * the members' own uploads, which uploads.ts serves to their owner and operators only). The bytes
 * are the upload's, stored re-encoded by the upload checks (server/modules/identity/uploads.ts:
 * content-detected type, full decode, metadata dropped). The route, `GET /api/vue/news/cover/:id`,
 * is server/http/news-cover.ts.
 */
import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import { newsArticles, uploads } from '../../db/schema';
import type { Services } from '../common/context';
import { uploadPath } from '../identity/uploads';

/**
 * The cover of published article `id` (the route's raw parameter): its stored type and bytes, or
 * null for anything else (not a positive int4 id, an unknown or withdrawn article, no cover, a
 * missing file).
 */
export async function publishedCover(
  { db, config }: Pick<Services, 'db' | 'config'>,
  rawId: string,
): Promise<{ mime: string; bytes: Buffer } | null> {
  const id = Number(rawId);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return null;
  const [row] = await db
    .select({ uploadId: uploads.id, mime: uploads.mime })
    .from(newsArticles)
    .innerJoin(uploads, eq(uploads.id, newsArticles.coverUploadId))
    .where(and(eq(newsArticles.id, id), eq(newsArticles.status, 'published')));
  if (!row) return null;
  try {
    return { mime: row.mime, bytes: await readFile(uploadPath(config.dataDir, row.uploadId)) };
  } catch {
    return null;
  }
}
