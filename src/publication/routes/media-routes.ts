/**
 * `{BASE_PATH}/media/*`: the files of MEDIA_DIR, read-only, when it is set. Relative media paths
 * in published cells (`av/12.mp4`, `images/3.jpg`) then resolve here (config.mediaBaseUrl), so
 * the browse pages' images and player, and the API's `video_url`, answer on a server that holds
 * its media itself (the `npm start` demo does). A site whose media live elsewhere leaves it unset
 * and sets MEDIA_BASE_URL. Byte ranges are answered (a player seeks without downloading the whole
 * file); folders are never listed; nothing outside MEDIA_DIR is reachable.
 */
import type { FastifyInstance } from 'fastify';
import { MEDIA_PREFIX } from '../config.js';
import { asProblem, sendProblem } from '../http/error-handling.js';
import { ProblemError } from '../problems.js';

export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  const { mediaDir, cacheMaxAge } = app.ctx.config;
  if (!mediaDir) return;
  // Loaded only when there are media to serve (about 1.6 MB of heap otherwise held for nothing).
  const { default: fastifyStatic } = await import('@fastify/static');
  await app.register(async (media) => {
    // A folder or a hidden file is refused by the file sender (403): to a reader it is no file.
    media.setErrorHandler((err, request, reply) => {
      const status =
        (err as { statusCode?: number; status?: number }).statusCode ?? (err as { status?: number }).status;
      const problem =
        status === 403 || status === 404
          ? new ProblemError('not-found', `there is no media file at ${request.url.split('?')[0]}`)
          : asProblem(request, err);
      return sendProblem(request, reply, problem);
    });
    await media.register(fastifyStatic, {
      root: mediaDir,
      prefix: `${MEDIA_PREFIX}/`,
      index: false,
      list: false,
      dotfiles: 'deny',
      decorateReply: false,
      acceptRanges: true,
      maxAge: cacheMaxAge * 1000,
      setHeaders: (res) => {
        res.setHeader('X-Content-Type-Options', 'nosniff');
        // A media file is shown, never run: no script of a crafted SVG or HTML file can act.
        res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      },
    });
  });
}
