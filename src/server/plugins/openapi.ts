/**
 * OpenAPI document generated from the route schemas, browsable at /docs (fastify-plugin: must see
 * every route). Each operation also says who may call it, from the route's RBAC config:
 * `x-access` is `public`, `session` (any signed-in user) or the menu access ids the current role must
 * hold (one of them, `a | b`), `x-seed-only` marks routes for the unit's main account; a public operation needs no session.
 * A multipart route documents its parts with `MULTIPART_DOC` in its schema (the parser, not Fastify's
 * validation, reads them): the document shows it as the request body.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_PARAM } from '../../shared/contract';

/** Route schema key of a multipart route's parts, for the document only. */
export const MULTIPART_DOC = 'x-multipart-body';

export interface OpenApiOptions {
  title: string;
}

export default fp<OpenApiOptions>(
  async (app, { title }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: `${title} API`,
          version: '1.0.0',
          description: 'JeeSite-style envelope: `{result, success, isSuccess, message, errorMsg, code, data}`.',
        },
        components: {
          securitySchemes: {
            sessionQuery: { type: 'apiKey', in: 'query', name: SESSION_PARAM },
            sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_PARAM },
          },
        },
        security: [{ sessionQuery: [] }, { sessionCookie: [] }],
      },
      transform: ({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) => {
        const config = route.config ?? {};
        const access = config.public ? 'public' : (config.access ?? (config.accessAny?.length ? config.accessAny.join(' | ') : 'session'));
        const extras = { 'x-access': access, ...(config.seedOnly ? { 'x-seed-only': true } : {}), ...(config.public ? { security: [] } : {}) };
        const { [MULTIPART_DOC]: parts, ...rest } = (schema ?? {}) as FastifySchema & { [MULTIPART_DOC]?: unknown };
        return { schema: { ...rest, ...(parts ? { body: parts } : {}), ...extras }, url };
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'openapi' },
);
