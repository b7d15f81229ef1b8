/**
 * Construction notices beyond the resource's own operations (registered in the API scope after the
 * resource engine):
 *
 *   GET|POST /a/stone/eqmBcwBasic/checkBcwCancell   `id`: whether the caller's unit may cancel the
 *            notice now — { canCancel, reason } (reason: why not, in Chinese); the cancel itself is
 *            the workflow action `cancel` (legacy cancellationNotice), which asks the same rule
 */
import type { FastifyPluginAsync, FastifyRequest, FastifyReply } from 'fastify';
import { isId } from '../../db/ids';
import { AppError } from '../../errors';
import { inputOf } from '../../resources/operations';
import { findRow } from '../../resources/repository';
import { actorOf, ownsRow, visibleRows } from '../../resources/scope';
import { failureResponses } from '../../../shared/wire';
import { constructionMessage } from './errors';
import { cancelRefusal, CONSTRUCTION } from './hooks';

export const constructionRoutes: FastifyPluginAsync = async (app) => {
  const config = { accessAny: app.resources.get(CONSTRUCTION)?.model.access ?? [] };
  app.route({
    method: ['GET', 'POST'],
    url: '/a/stone/eqmBcwBasic/checkBcwCancell',
    config,
    schema: {
      summary: 'Whether the own unit may cancel a construction notice now (checkBcwCancell): { canCancel, reason }',
      tags: ['eqm-bcw-basic'],
      response: failureResponses,
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const compiled = app.resources.get(CONSTRUCTION);
      if (!compiled) throw new Error(`resource '${CONSTRUCTION}' is not loaded`);
      const { model } = compiled;
      const actor = actorOf(request);
      const id = inputOf(request).id;
      const row = isId(id) ? await findRow(app.db, model, id, visibleRows(model, actor)) : undefined;
      if (!row) throw new AppError('RECORD_NOT_FOUND');
      // Only the unit that filed the notice cancels it; the authority sees why it may not.
      const refusal = cancelRefusal(row);
      const reason = !ownsRow(model, actor, row) ? '只有告知单位可以撤销施工告知' : refusal ? constructionMessage(refusal) : null;
      return reply.ok({ id: row.id, noticeNo: row.noticeNo ?? null, status: row.status, canCancel: reason === null, reason });
    },
  });
};
