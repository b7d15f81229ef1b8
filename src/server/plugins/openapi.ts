/** OpenAPI document generated from the route schemas, browsable at /docs (fastify-plugin: must see every route). */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { SESSION_PARAM } from '../../shared/contract';

export interface OpenApiOptions {
  title: string;
}

export default fp<OpenApiOptions>(
  async (app, { title }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: `${title} API`, version: '1.0.0', description: 'JeeSite-style envelope: `{result, success, isSuccess, message, errorMsg, code, data}`.' },
        components: {
          securitySchemes: {
            sessionQuery: { type: 'apiKey', in: 'query', name: SESSION_PARAM },
            sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_PARAM },
          },
        },
        security: [{ sessionQuery: [] }, { sessionCookie: [] }],
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'openapi' },
);
