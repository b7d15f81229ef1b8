/**
 * Browser error reports (the original error log entry: type, code, mes, url plus time, token, userId,
 * userName), accepted with or without a session. Anyone may write here, so it is bounded: reports
 * are limited per visitor IP (a signed-in user per account, ten times as many), both paths counting
 * together, and the housekeeping job caps visitor reports and drops old ones.
 *
 * Who reported is the session's business, not the body's: token, userId and userName are accepted
 * as the browser sends them but the stored user and token fingerprint come from the session (a
 * visitor's claims are dropped). The browser's time is kept in `client_time`, beside the server's
 * receipt time `time`.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { API, type ErrorLogEntry } from '../../shared/contract';
import { newId } from '../db/ids';
import { envelopeOf, errorLogEntrySchema, failureResponses } from '../../shared/wire';

const BODY_LIMIT = 16 * 1024;
/** Only a prefix of the session's id (the token's digest, sys_session.id) is kept: enough to correlate reports, useless to replay. */
const TOKEN_FINGERPRINT_LENGTH = 8;

/** The fields the browser reports (errorLogEntrySchema), each optional: a report is kept whatever it lacks. */
const bodySchema = { type: 'object', properties: errorLogEntrySchema.properties } as const;

/** An ISO 8601 date-time (what the browser sends: toISOString); anything else is not a time worth keeping. */
const CLIENT_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** The browser's time as a date the database holds (years 1970–9999), else null: a wrong clock never refuses a report. */
function clientTime(value: unknown): Date | null {
  if (typeof value !== 'string' || !CLIENT_TIME.test(value)) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) || time.getUTCFullYear() < 1970 ? null : time;
}

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
            client_time: clientTime(entry.time),
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
