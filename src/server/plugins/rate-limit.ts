/**
 * @fastify/rate-limit for the API scope, off unless a route asks (`config.rateLimit`), counting in
 * the database (services/rate-counter.ts) so every process behind a balancer shares the limits.
 * Over a limit the answer is the envelope's RATE_LIMITED (429, Chinese message).
 */
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { RateLimitStore } from '../services/rate-counter';

export default fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      store: RateLimitStore(app.db),
      errorResponseBuilder: () => new AppError('RATE_LIMITED'),
    });
  },
  { name: 'rate-limit', dependencies: ['db'] },
);
