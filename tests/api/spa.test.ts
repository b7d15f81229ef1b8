import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/contract';
import { api, appSuite, dbTargets } from './helpers';

describe.each(dbTargets())('serving the built front end (%s)', (target) => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'portal-dist-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><html><head><title>平台</title></head><body><div id="root"></div></body></html>');
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'assets', 'app-abc123.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true })); // after the suite's app closes
  const { app } = appSuite(target, { build: () => ({ staticDir: root }) });

  it('serves files, with long caching for hashed assets', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it("sends the build's brotli or gzip copy to a browser that accepts it, the file itself to others", async () => {
    // scripts/precompress.ts writes these beside each asset at build time; distinct bodies prove which one was sent.
    writeFileSync(join(root, 'assets', 'big-abc123.js'), 'console.log("plain")');
    writeFileSync(join(root, 'assets', 'big-abc123.js.br'), 'BROTLI-BODY');
    writeFileSync(join(root, 'assets', 'big-abc123.js.gz'), 'GZIP-BODY');
    try {
      const br = await app.inject({ method: 'GET', url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'public, max-age=31536000, immutable' });
      expect(String(br.headers['content-type'])).toContain('javascript');
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      expect(br.body).toBe('BROTLI-BODY');
      const gz = await app.inject({ method: 'GET', url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.body).toBe('GZIP-BODY');
      const plain = await app.inject({ method: 'GET', url: '/assets/big-abc123.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe('console.log("plain")');
      // History-mode routes answer with index.html (with the configuration), compressed too, never cached unasked.
      const page = await app.inject({ method: 'GET', url: '/home', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(page.headers).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'no-cache' });
      expect(String(page.headers['content-type'])).toContain('text/html');
      expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root">');
      const gzPage = await app.inject({ method: 'GET', url: '/home', headers: { 'accept-encoding': 'gzip' } });
      expect(gzPage.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzPage.rawPayload).toString()).toBe((await app.inject({ method: 'GET', url: '/home' })).body);
    } finally {
      rmSync(join(root, 'assets', 'big-abc123.js.br'));
    }
  });

  it('embeds the runtime configuration in the page, the same as GET appConfig answers, so the first render has it', async () => {
    const page = (await app.inject({ method: 'GET', url: '/equipment/overview' })).body;
    const block = /<script id="app-config" type="application\/json">(.*?)<\/script><\/head>/.exec(page);
    expect(block).not.toBeNull();
    // No value can close the element early.
    expect(block![1]).not.toContain('<');
    const served = (await app.inject({ method: 'GET', url: api(API.appConfig) })).json<{ data: unknown }>().data;
    expect(JSON.parse(block![1])).toEqual(served);
  });

  it('serves a new index.html copied over the running server, with the configuration', async () => {
    const before = readFileSync(join(root, 'index.html'), 'utf8');
    try {
      writeFileSync(join(root, 'index.html'), before.replace('<title>平台</title>', '<title>新版本</title>'));
      // A later modification time than the first write, whatever the file system's resolution.
      utimesSync(join(root, 'index.html'), new Date(), new Date(Date.now() + 5_000));
      const page = (await app.inject({ method: 'GET', url: '/home' })).body;
      expect(page).toContain('<title>新版本</title>');
      expect(page).toContain('<script id="app-config"');
    } finally {
      writeFileSync(join(root, 'index.html'), before);
    }
  });

  it('answers history-mode routes with index.html', async () => {
    for (const url of ['/', '/home', '/equipment/overview?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('never serves the view configuration stale (as in the original portal): the page naming the build’s screen chunks is revalidated on every load', async () => {
    // Screens are compiled into content-hashed chunks under assets/ (a changed screen is a new name);
    // whatever names them, and any file without a content hash, must not be taken from a cache unasked.
    writeFileSync(join(root, 'assets', 'equipment-list-9f8e7d.js'), 'export default {}');
    writeFileSync(join(root, 'favicon.svg'), '<svg/>');
    for (const url of ['/index.html', '/', '/favicon.svg']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await app.inject({ method: 'GET', url: '/assets/equipment-list-9f8e7d.js' })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the security headers with the page: a CSP of its own scripts, no framing by others, nosniff', async () => {
    const res = await app.inject({ method: 'GET', url: '/home' });
    const csp = String(res.headers['content-security-policy']);
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'self'", "img-src 'self' data: blob:"])
      expect(csp).toContain(directive);
    // No 'unsafe-eval', no inline scripts, and no upgrade of an intranet's plain-HTTP requests.
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|upgrade-insecure-requests/);
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', 'referrer-policy': 'no-referrer' });
    const apiRes = await app.inject({ method: 'GET', url: api(API.appConfig) });
    expect(apiRes.headers['content-security-policy']).toBe(res.headers['content-security-policy']);
    // The schema playground compiles validators in the browser: its page alone may evaluate scripts.
    const dev = String((await app.inject({ method: 'GET', url: '/dev/playground' })).headers['content-security-policy']);
    expect(dev).toContain("script-src 'self' 'unsafe-eval'");
    expect(dev.replace(" 'unsafe-eval'", '')).toBe(csp.replace(/;$/, ''));
  });

  it("never serves the server's own files that sit beside the front end in the build folder", async () => {
    writeFileSync(join(root, 'server.mjs'), 'const secret = 1;');
    writeFileSync(join(root, 'server.mjs.map'), '{"version":3}');
    writeFileSync(join(root, 'admin.mjs'), 'const secret = 2;');
    for (const url of ['/server.mjs', '/server.mjs.map', '/admin.mjs', '/SERVER.MJS']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('secret');
    }
    expect((await app.inject({ method: 'GET', url: '/assets/app-abc123.js' })).statusCode).toBe(200);
  });

  it('keeps the JSON envelope for unknown API paths and missing files', async () => {
    for (const url of [api('/a/unknown'), '/assets/missing-file.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ result: 'false', code: 'NOT_FOUND' });
    }
    expect((await app.inject({ method: 'GET', url: api(API.appConfig) })).statusCode).toBe(200);
  });
});
