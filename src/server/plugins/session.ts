/**
 * Session loading: the token comes from the `__sid` query parameter, cookie or `x-sid` header (or
 * the extension token `__extend` / `x-extend`), and `request.session` is the live session or null.
 * The session is found by the token's digest (PORTAL_CRYPTO); the token itself is neither kept
 * nor logged. A token of a session the system ended sets `request.sessionEnd` to the reason.
 * Shared with the API scope it is registered in (fastify-plugin); requires @fastify/cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { EXTEND_PARAM, SESSION_PARAM } from '../../shared/contract';
import { isId } from '../db/ids';
import { AppError } from '../errors';
import type { CryptoMode } from '../services/crypto-suite';
import {
  resolveSessionCached,
  SessionCache,
  sessionEndReason,
  sessionLookupOf,
  type CurrentSession,
  type SessionEndReason,
  type SessionLookup,
} from '../services/sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated session, or null for an anonymous (or expired) request. */
    session: CurrentSession | null;
    /** Why the system ended the session the request names (a newer login of its account), else null. */
    sessionEnd: SessionEndReason | null;
  }
}

export const SESSION_HEADER = 'x-sid';
export const EXTEND_HEADER = 'x-extend';

function readToken(request: FastifyRequest, param: string, header: string): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const candidates = [query?.[param], request.cookies?.[param], request.headers[header]];
  const token = candidates.find((value) => typeof value === 'string' && value !== '');
  return isId(token) ? token : undefined;
}

/** The digest the request's session is looked up by, if it carries a token. */
export function sessionLookup(request: FastifyRequest, mode: CryptoMode): SessionLookup | null {
  const token = readToken(request, SESSION_PARAM, SESSION_HEADER);
  if (token) return sessionLookupOf(mode, { token });
  const extendToken = readToken(request, EXTEND_PARAM, EXTEND_HEADER);
  return extendToken ? sessionLookupOf(mode, { extendToken }) : null;
}

export interface SessionPluginOptions {
  ttlMinutes: number;
}

export default fp<SessionPluginOptions>(
  async (app, { ttlMinutes }) => {
    app.decorateRequest('session', null);
    app.decorateRequest('sessionEnd', null);
    const { crypto, passwordMaxAgeDays } = app.config;
    const policy = { ttlMinutes, passwordMaxAgeDays };
    // Resolved sessions by digest, kept while no process has changed sessions, users or roles (services/sessions.ts).
    const cache = new SessionCache();
    app.addHook('onRequest', async (request) => {
      const lookup = sessionLookup(request, crypto);
      request.session = lookup ? await resolveSessionCached(app.db, cache, lookup, policy) : null;
      request.sessionEnd = lookup && !request.session ? await sessionEndReason(app.db, lookup) : null;
    });
  },
  { name: 'session', dependencies: ['db', '@fastify/cookie'] },
);

/** The session of a route that requires login (rbac has already refused anonymous requests). */
export function requireSession(request: FastifyRequest): CurrentSession {
  if (!request.session) throw new AppError('UNAUTHENTICATED');
  return request.session;
}

/** The `__sid` cookie: httpOnly, lax, scoped to the API base, ending with the browser session. */
export function setSessionCookie(reply: FastifyReply, token: string, apiBase: string): void {
  reply.setCookie(SESSION_PARAM, token, { path: apiBase, httpOnly: true, sameSite: 'lax', secure: reply.request.protocol === 'https' });
}

export function clearSessionCookie(reply: FastifyReply, apiBase: string): void {
  reply.clearCookie(SESSION_PARAM, { path: apiBase });
}
