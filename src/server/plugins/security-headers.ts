/**
 * Security headers on every answer (@fastify/helmet): a Content-Security-Policy the portal passes
 * — its own scripts only (Vite emits no inline script, the engine evaluates expressions without
 * eval), inline styles allowed (antd writes its CSS-in-JS into <style> tags and style attributes;
 * the sandbox cashier page has one <style>), images from itself, data: and blob: (QR codes, the
 * captcha, previews), no plugins, no framing by other sites — plus nosniff, a same-origin opener
 * and resource policy, no referrer, and HSTS (ignored by browsers over plain HTTP). The policy does
 * not upgrade requests to HTTPS: a portal served over HTTP inside an intranet must keep working.
 * The headers are computed once at start (helmetHeaders) and set on every answer.
 */
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import fp from 'fastify-plugin';

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
} as const;

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The policy for the development pages (/dev/…: the schema playground lints pasted JSON with ajv,
 * which compiles validators with `new Function`): the same, plus 'unsafe-eval' for scripts. The SPA
 * sends it with the page when the address is one of them; opened from another page by the menu,
 * the playground keeps the stricter policy of the document, so it is opened by its address.
 */
export const DEV_PAGE_POLICY = Object.entries({ ...CONTENT_SECURITY_POLICY, scriptSrc: [...CONTENT_SECURITY_POLICY.scriptSrc, "'unsafe-eval'"] })
  .map(([name, values]) => `${kebab(name)} ${values.join(' ')}`)
  .join(';');
export const DEV_PAGE_PREFIX = '/dev/';

const HELMET_OPTIONS = {
  global: true,
  contentSecurityPolicy: { useDefaults: false, directives: { ...CONTENT_SECURITY_POLICY } },
  // Cross-origin isolation would refuse nothing the portal loads but is not needed; leave it off.
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'no-referrer' },
} as const;

/**
 * The headers helmet writes with HELMET_OPTIONS, read once from a probe server's answer (what
 * helmet adds to an answer that has none of its own). @fastify/helmet builds the whole helmet
 * middleware again on every request (parsing the policy each time) for headers that never change
 * here: a measurable part of a light API request (npm run bench:concurrency). No nonces, no per-route options.
 */
export async function helmetHeaders(): Promise<Record<string, string>> {
  const answer = async (withHelmet: boolean) => {
    const probe = Fastify({ logger: false });
    if (withHelmet) await probe.register(helmet, HELMET_OPTIONS);
    probe.get('/', async () => 'probe');
    try {
      return (await probe.inject('/')).headers;
    } finally {
      await probe.close();
    }
  };
  const [plain, helmeted] = await Promise.all([answer(false), answer(true)]);
  const headers = Object.entries(helmeted).filter(([name, value]) => typeof value === 'string' && !(name in plain));
  if (!headers.some(([name]) => name === 'content-security-policy')) throw new Error('security headers: helmet wrote no Content-Security-Policy');
  return Object.fromEntries(headers) as Record<string, string>;
}

export default fp(
  async (app) => {
    const headers = await helmetHeaders();
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
