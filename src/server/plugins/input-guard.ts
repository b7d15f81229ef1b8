/**
 * Input no handler should see: a NUL character (\u0000) anywhere in the parsed body, the query or
 * the path parameters is refused before validation and before any SQL (PostgreSQL cannot store it
 * in text, and no field of the portal means one), with the catalogue's Chinese message.
 */
import fp from 'fastify-plugin';
import { AppError } from '../errors';

/** Whether a parsed value holds a string with a NUL character (objects and arrays walked, to a depth). */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Buffer.isBuffer(value)) return false;
  const items = Array.isArray(value) ? value : Object.entries(value).flat();
  return items.some((item) => holdsNul(item, depth + 1));
}

export default fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body)) throw new AppError('TEXT_INVALID_CHARACTER');
    });
  },
  { name: 'input-guard' },
);
