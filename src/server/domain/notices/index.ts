/**
 * The authority's notices and the home desk's legacy index (the original API "Home index", /a/stone/index/...):
 * the articles are the resource notice-article (its own `api` holds articles/list and
 * articles/detail; articles/page is a second list path here); statistics and overview answer the
 * home work desk (resources/desk.ts) — the same counts as GET /desk and the lists they open.
 */
import type { FastifyPluginAsync } from 'fastify';
import { legacyRoute } from '../../legacy/table';
import { envelopeOf, failureResponses } from '../../../shared/wire';
import { deskSchema } from '../../resources/desk';
import type { DomainFeature } from '../feature';
import { NOTICE, seedNotices } from './seed';

const indexRoutes: FastifyPluginAsync = async (app) => {
  // statistics: every desk card (label, count, the list it opens); overview: the desk whole, charts included.
  const cardSchema = {
    type: 'array',
    items: {
      type: 'object',
      required: ['section', 'label', 'count'],
      properties: { section: { type: 'string' }, label: { type: 'string' }, count: { type: 'integer' }, href: { type: 'string' } },
    },
  };
  app.route({
    method: ['GET', 'POST'],
    url: '/a/stone/index/statistics',
    schema: {
      tags: ['desk'],
      summary: 'Home index statistics: the desk cards counted for the session',
      response: { 200: envelopeOf(cardSchema), ...failureResponses },
    },
    handler: async (request, reply) => {
      const desk = await app.desk(request);
      return reply.ok(desk.flatMap((s) => s.cards.map((c) => ({ section: s.title, label: c.label, count: c.count, ...(c.href ? { href: c.href } : {}) }))));
    },
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/a/stone/index/overview',
    schema: {
      tags: ['desk'],
      summary: 'Home index overview: the whole desk (cards and charts)',
      response: { 200: envelopeOf(deskSchema), ...failureResponses },
    },
    handler: async (request, reply) => reply.ok(await app.desk(request)),
  });
};

export const noticesFeature: DomainFeature = {
  name: 'notices',
  routes: indexRoutes,
  legacy: [legacyRoute('/a/stone/index/articles/page', NOTICE, 'list', { screen: 'notice-list' })],
  seed: seedNotices,
};
