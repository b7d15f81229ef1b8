/**
 * Route schemas compiled on a route's first use instead of at start: Fastify compiles every route's
 * validators (ajv) and response serializers (fast-json-stringify) while the server starts — about
 * a third of a warm restart's CPU for the few hundred routes (the warm-restart goal is ≤ 3 s, npm run bench:restart) — although a
 * process answers a handful of them in its first minutes. Under the test runner (VITEST) both stay
 * eager by default, so a schema that does not compile still fails the start of every test server,
 * not the first request a user makes; the e2e servers and tests/api/lazy-schemas.test.ts run lazy
 * (PORTAL_SCHEMAS=lazy), as `npm start` does. PORTAL_SCHEMAS=eager compiles everything at start.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { serverAjv } from './validation';

/** Whether route schemas are compiled at first use: PORTAL_SCHEMAS=lazy|eager, default lazy but under the test runner. */
export const lazySchemas = (): boolean => process.env.PORTAL_SCHEMAS === 'lazy' || (process.env.PORTAL_SCHEMAS !== 'eager' && !process.env.VITEST);

/** Route validators of the server's one ajv, each compiled on the first request it checks. */
export const routeValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema }) => {
  if (!lazySchemas()) return serverAjv().compile(schema as object);
  let compiled: ValidateFunction | undefined;
  // Fastify reads a failed validation's errors from the function it was given.
  const validate = Object.assign(
    (data: unknown) => {
      compiled ??= serverAjv().compile(schema as object);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    },
    { errors: null as ValidateFunction['errors'] },
  );
  return validate;
};

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's own serializer factory (fast-json-stringify), each serializer built on its first reply. */
const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => (serialize ??= build(route))(data);
  };
};

/** The `schemaController` option of Fastify: lazy serializers (see above); Fastify's default otherwise. */
export function schemaControllerOptions(): FastifyServerOptions['schemaController'] {
  return lazySchemas() ? { compilersFactory: { buildSerializer: lazySerializerFactory } } : undefined;
}
