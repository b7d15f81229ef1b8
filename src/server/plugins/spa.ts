/**
 * Serves the built front end: files from `root`, and index.html for any other GET outside the API
 * base (history-mode routes such as /home). Unknown API paths keep the JSON envelope 404.
 * Content-hashed build output (assets/) is cached for good; everything else — index.html, which names
 * the build's chunks and so its screens — is `no-cache`: the view configuration is never served
 * stale after a deploy (see src/engine/registry/bundled.ts).
 * The build writes brotli and gzip copies beside each file (scripts/precompress.ts); a browser that
 * accepts them gets them as they are (`preCompressed`: no compression per request), others the file.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { notFoundHandler } from './error-handler';
import { DEV_PAGE_POLICY, DEV_PAGE_PREFIX } from './security-headers';

export interface SpaOptions {
  root: string;
  apiBase: string;
}

const HASHED_ASSET = /[\\/]assets[\\/]/;
const FILE_NAME = /\.[a-z0-9]+$/i;

export default fp<SpaOptions>(
  async (app, { root, apiBase }) => {
    if (!existsSync(join(root, 'index.html'))) {
      app.log.warn(`front end not built: ${join(root, 'index.html')} is missing (run \`npm run build\`); serving the API only`);
      app.setNotFoundHandler(notFoundHandler);
      return;
    }
    await app.register(fastifyStatic, {
      root,
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, path) {
        reply.header('Cache-Control', HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      const isPageRequest =
        (request.method === 'GET' || request.method === 'HEAD') && path !== apiBase && !path.startsWith(`${apiBase}/`) && !FILE_NAME.test(path);
      if (!isPageRequest) return notFoundHandler(request, reply);
      if (path.startsWith(DEV_PAGE_PREFIX)) reply.header('Content-Security-Policy', DEV_PAGE_POLICY);
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'spa' },
);
