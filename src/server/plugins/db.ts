/** Opens the database, applies migrations and shares `app.db` (fastify-plugin). */
import fp from 'fastify-plugin';
import { createDatabase, migrateToLatest, type Db, type DatabaseTarget } from '../db/index';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

export default fp<DatabaseTarget>(
  async (app, target) => {
    const db = createDatabase(target);
    app.decorate('db', db);
    app.addHook('onClose', async () => db.destroy());
    await migrateToLatest(db);
  },
  { name: 'db' },
);
