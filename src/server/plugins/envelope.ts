/** Reply helpers for the envelope: `reply.ok(data, message?)`. Shared with every route (fastify-plugin). */
import fp from 'fastify-plugin';
import { okEnvelope } from '../envelope';

declare module 'fastify' {
  interface FastifyReply {
    /** Sends `{result:"true", success:true, isSuccess:true, message, data}`. */
    ok<T>(data: T, message?: string): FastifyReply;
  }
}

export default fp(
  async (app) => {
    app.decorateReply('ok', function ok<T>(this: import('fastify').FastifyReply, data: T, message?: string) {
      return this.send(okEnvelope(data, message));
    });
  },
  { name: 'envelope' },
);
