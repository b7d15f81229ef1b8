/**
 * Serves the built front end: files from `root`, and index.html for any other GET outside the API
 * base (history-mode routes such as /home). Unknown API paths keep the JSON envelope 404.
 * Content-hashed build output (assets/) is cached for good; everything else — index.html, which names
 * the build's chunks and so its screens — is `no-cache`: the view configuration is never served
 * stale after a deploy (see src/engine/registry/bundled.ts).
 * The build writes brotli and gzip copies beside each file (scripts/precompress.ts); a browser that
 * accepts them gets them as they are (`preCompressed`: no compression per request), others the file.
 * A page request gets index.html with the browser's runtime configuration (AppConfig) embedded as a
 * JSON data block, so the header, the document title and the route guards have it at the first
 * render instead of one round trip later (src/app/config.ts reads it; GET appConfig stays for any
 * other client). That page is built at start, with its gzip and brotli copies, and again whenever
 * index.html changes on disk.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { notFoundHandler } from './error-handler';
import { DEV_PAGE_POLICY, DEV_PAGE_PREFIX } from './security-headers';

export interface SpaOptions {
  root: string;
  apiBase: string;
  /** The browser's runtime configuration, embedded in every page (the id names the data block). */
  appConfig: object;
}

/** The id of the page's JSON block holding the runtime configuration (src/app/config.ts). */
export const APP_CONFIG_ELEMENT = 'app-config';

/** index.html with `appConfig` as a JSON data block before </head>, and its compressed copies. */
function pageWithConfig(html: string, appConfig: object): { body: Buffer; br: Buffer; gzip: Buffer } {
  // `<` escaped: a value can never close the element.
  const json = JSON.stringify(appConfig).replace(/</g, '\\u003c');
  const block = `<script id="${APP_CONFIG_ELEMENT}" type="application/json">${json}</script>`;
  const body = Buffer.from(html.includes('</head>') ? html.replace('</head>', `${block}</head>`) : html);
  return { body, br: brotliCompressSync(body), gzip: gzipSync(body) };
}

const HASHED_ASSET = /[\\/]assets[\\/]/;
/**
 * Files in the build folder that are not the front end's: the server bundle and its map
 * (dist/server.mjs, scripts/build-server.ts) and, in the offline package, the operator scripts'
 * bundles. Never served: they would hand anyone the server's code.
 */
const SERVER_FILE = /\.(?:mjs|cjs|map)$/i;
const FILE_NAME = /\.[a-z0-9]+$/i;

export default fp<SpaOptions>(
  async (app, { root, apiBase, appConfig }) => {
    if (!existsSync(join(root, 'index.html'))) {
      app.log.warn(`front end not built: ${join(root, 'index.html')} is missing (run \`npm run build\`); serving the API only`);
      app.setNotFoundHandler(notFoundHandler);
      return;
    }
    // Rebuilt when index.html changes (a front end copied over a running server names new chunks).
    const indexFile = join(root, 'index.html');
    let built = { mtimeMs: -1, page: pageWithConfig('', appConfig) };
    const currentPage = () => {
      const { mtimeMs } = statSync(indexFile);
      if (mtimeMs !== built.mtimeMs) built = { mtimeMs, page: pageWithConfig(readFileSync(indexFile, 'utf8'), appConfig) };
      return built.page;
    };
    currentPage();
    const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
      const page = currentPage();
      const accepted = String(request.headers['accept-encoding'] ?? '');
      const [encoding, body] = /\bbr\b/.test(accepted) ? ['br', page.br] : /\bgzip\b/.test(accepted) ? ['gzip', page.gzip] : [undefined, page.body];
      if (encoding) reply.header('Content-Encoding', encoding);
      return reply.header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding').type('text/html; charset=utf-8').send(body);
    };
    await app.register(fastifyStatic, {
      root,
      // `/` is a page like any other: served by sendPage, with the configuration.
      index: false,
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      allowedPath: (path) => !SERVER_FILE.test(path),
      setHeaders(reply, path) {
        reply.header('Cache-Control', HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/', sendPage);
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      const isPageRequest =
        (request.method === 'GET' || request.method === 'HEAD') && path !== apiBase && !path.startsWith(`${apiBase}/`) && !FILE_NAME.test(path);
      if (!isPageRequest) return notFoundHandler(request, reply);
      if (path.startsWith(DEV_PAGE_PREFIX)) reply.header('Content-Security-Policy', DEV_PAGE_POLICY);
      return sendPage(request, reply);
    });
  },
  { name: 'spa' },
);
