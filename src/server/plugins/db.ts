/** Shares the opened, migrated database as `app.db` and closes it with the app (fastify-plugin). */
import fp from 'fastify-plugin';
import type { Db } from '../db/index';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

export default fp<{ db: Db }>(
  async (app, { db }) => {
    app.decorate('db', db);
    app.addHook('onClose', async () => db.destroy());
  },
  { name: 'db' },
);
