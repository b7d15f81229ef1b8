/** Loads (or on first start creates) the server's login key pair (RSA or SM2) and SSO secret as `app.keys` (fastify-plugin). */
import fp from 'fastify-plugin';
import { loadServerKeys, type ServerKeys } from '../services/server-keys';

declare module 'fastify' {
  interface FastifyInstance {
    keys: ServerKeys;
  }
}

export default fp(
  async (app) => {
    app.decorate('keys', await loadServerKeys(app.db, app.config));
  },
  { name: 'keys', dependencies: ['db'] },
);
