/**
 * Opens the attachment store of the configuration (services/attachment-store.ts: `folder` or
 * `database`) once for the app, as `app.attachmentStore`, so every route that stores or reads
 * files (the signed-in uploads, the phone uploads, the visitor uploads of applications) shares it.
 * A folder that cannot be written stops the start with a StartupError naming
 * PORTAL_ATTACHMENT_DIR; `/health/ready` runs the store's check ('attachments').
 */
import fp from 'fastify-plugin';
import { openAttachmentStore, type AttachmentStore } from '../services/attachment-store';

declare module 'fastify' {
  interface FastifyInstance {
    attachmentStore: AttachmentStore;
  }
}

export default fp(
  async (app) => {
    const store = await openAttachmentStore(app.db, app.config);
    app.decorate('attachmentStore', store);
    app.lifecycle.readinessChecks.set('attachments', () => store.check());
    app.addHook('onClose', async () => store.close());
  },
  { name: 'attachment-store', dependencies: ['db', 'lifecycle'] },
);
