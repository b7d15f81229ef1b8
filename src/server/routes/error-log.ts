/**
 * Browser error reports (SPEC.md §3 error log entry), accepted with or without a session. Anyone may
 * write here, so it is bounded: reports are limited per visitor IP (a signed-in user per account,
 * ten times as many), both paths counting together, and the housekeeping job caps visitor reports
 * and drops old ones.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { API, type ErrorLogEntry } from '../../shared/contract';
import { newId } from '../db/ids';
import { envelopeOf, errorLogEntrySchema, failureResponses } from '../../shared/wire';

const BODY_LIMIT = 16 * 1024;
/** Only a prefix of the session token is kept: enough to correlate reports, useless to replay. */
const TOKEN_FINGERPRINT_LENGTH = 8;

/** The fields the browser reports (errorLogEntrySchema), each optional: a report is kept whatever it lacks. */
const { type, code, mes, url } = errorLogEntrySchema.properties;
const bodySchema = { type: 'object', properties: { type, code, mes, url } } as const;

/** A signed-in user's allowance, as a multiple of a visitor's. */
const SIGNED_IN_FACTOR = 10;

const errorLogRoutes: FastifyPluginAsync = async (app) => {
  const paths = [API.saveErrorLogger, `/a${API.saveErrorLogger}`];
  const { errorLogRateLimit } = app.config;
  const rateLimit = {
    groupId: 'error-log',
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => (request.session ? `user:${request.session.user.id}` : `ip:${request.ip}`),
    max: (request: FastifyRequest) => (request.session ? errorLogRateLimit * SIGNED_IN_FACTOR : errorLogRateLimit),
  };
  for (const path of paths) {
    app.post<{ Body: Partial<ErrorLogEntry> }>(path, {
      bodyLimit: BODY_LIMIT,
      config: { public: true, rateLimit },
      schema: { summary: 'Store a browser error report', tags: ['system'], body: bodySchema, response: { 200: envelopeOf(), ...failureResponses } },
      handler: async (request, reply) => {
        const entry = request.body ?? {};
        const session = request.session;
        await app.db
          .insertInto('sys_error_log')
          .values({
            id: newId(),
            type: entry.type ?? '',
            code: String(entry.code ?? '').slice(0, 50),
            mes: entry.mes ?? '',
            url: entry.url ?? '',
            token: session ? session.id.slice(0, TOKEN_FINGERPRINT_LENGTH) : null,
            user_id: session?.user.id ?? null,
            user_name: session?.user.name ?? null,
            ip: request.ip,
            user_agent: request.headers['user-agent']?.slice(0, 500) ?? null,
          })
          .execute();
        return reply.ok(null, '已记录');
      },
    });
  }
};

export default errorLogRoutes;
