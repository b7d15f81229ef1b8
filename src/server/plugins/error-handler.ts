/**
 * The one place errors become replies: every thrown error (AppError, Fastify validation and
 * protocol errors, rate limiting, crashes) is answered with the envelope and a Chinese message
 * from the catalogue. Stack traces and internal messages go to the log only.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { failEnvelope } from '../envelope';
import { AppError, codeForStatus, ERRORS, isAppError, type ErrorCode } from '../errors';
import { ruleFailure } from '../validation';

interface Resolved {
  code: ErrorCode;
  status: number;
  message: string;
}

function validationMessage(err: FastifyError): string {
  const first = err.validation?.[0];
  const params = (first?.params ?? {}) as { missingProperty?: string };
  const field = params.missingProperty ?? first?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  return field ? `${ERRORS.BAD_REQUEST.message}：${field}` : ERRORS.BAD_REQUEST.message;
}

function resolve(err: FastifyError | AppError): Resolved {
  if (isAppError(err)) return { code: err.code, status: err.statusCode, message: err.message };
  if (err.validation) return { code: 'BAD_REQUEST', status: 400, message: validationMessage(err) };
  const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
  const code = codeForStatus(status);
  return { code, status, message: ERRORS[code].message };
}

/** Sends the failure envelope for a catalogued error code. */
export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  return reply.code(error.statusCode).send(failEnvelope(error.code, error.message, error.data));
}

export function notFoundHandler(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, new AppError('NOT_FOUND'));
}

export default fp(
  async (app) => {
    app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
      // A validator-catalogue rule failed in a route schema: the browser's message and the field.
      const error = ruleFailure((err as FastifyError).validation) ?? err;
      const { code, status, message } = resolve(error);
      if (status >= 500) request.log.error({ err }, 'request failed');
      else request.log.info({ code, status, reason: err.message }, 'request rejected');
      return reply.code(status).send(failEnvelope(code, message, isAppError(error) ? error.data : undefined));
    });
  },
  { name: 'error-handler' },
);
