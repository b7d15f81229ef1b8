/**
 * External links with the user's identity (menu items with `hrefAppend`, e.g. 自助服务 › 气瓶追溯).
 * The session token never leaves the portal: the browser asks the server for the address to open.
 *
 *   POST {apiBase}/a/link/token  { name }   session; the link must be configured (the app config's
 *                                           `links`) and opened by a menu item the current role may
 *                                           see → { url }: the configured address with `token=` a
 *                                           signed single-use 5-minute token (services/link-token.ts),
 *                                           or with `userId=` when PORTAL_EXTERNAL_LINK_IDENTITY is
 *                                           `userId` or the item asks for the user id
 *   GET|POST {apiBase}/link/verify?token=   no session (the outside system's call, limited per
 *                                           address) → { link, loginName, name, unitName, creditCode };
 *                                           a forged, expired or used token is refused in Chinese
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { LINK_API, type LinkAddress, type LinkIdentity } from '../../shared/external-link';
import { envelopeOf, failureResponses } from '../../shared/wire';
import { toAppConfig } from '../config';
import { AppError } from '../errors';
import { flattenMenu, loadMenu, type MenuNode } from '../menu';
import { isAllowed } from '../plugins/rbac';
import { requireSession } from '../plugins/session';
import { issueLinkToken, LINK_ERRORS, linkKey, redeemLinkToken } from '../services/link-token';

const tags = ['system'];

const addressSchema = { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } as const;
const identitySchema = {
  type: 'object',
  properties: {
    link: { type: 'string' },
    loginName: { type: 'string' },
    name: { type: 'string' },
    unitName: { type: 'string' },
    creditCode: { type: 'string' },
  },
  required: ['link', 'loginName', 'name', 'unitName', 'creditCode'],
} as const;
const tokenInput = { type: 'object', properties: { token: { type: 'string', maxLength: 1024 } } } as const;

/** Redeem calls a minute per address. */
const VERIFY_PER_MINUTE = 60;
/** Link addresses a minute per user. */
const ISSUE_PER_MINUTE = 30;

const externalLinkRoutes: FastifyPluginAsync = async (app) => {
  const links: Readonly<Record<string, string>> = toAppConfig(app.config).links;
  /** The menu items opening each link by name (hrefSetting). */
  const items = new Map<string, MenuNode[]>();
  for (const node of flattenMenu(loadMenu()?.routes ?? [])) if (node.hrefSetting) items.set(node.hrefSetting, [...(items.get(node.hrefSetting) ?? []), node]);
  const key = () => linkKey(app.config.crypto, app.keys.ssoSecret);

  app.post<{ Body: { name: string } }>(LINK_API.token, {
    config: {
      rateLimit: {
        groupId: 'link-token',
        max: ISSUE_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (request: FastifyRequest) => `user:${request.session?.user.id ?? request.ip}`,
      },
    },
    schema: {
      summary: 'The address of an external link, with a single-use token (or the user id) for the current user',
      tags,
      body: { type: 'object', properties: { name: { type: 'string', maxLength: 64 } }, required: ['name'] },
      response: { 200: envelopeOf(addressSchema), ...failureResponses },
    },
    handler: async (request, reply) => {
      const session = requireSession(request);
      const { name } = request.body;
      const href = Object.hasOwn(links, name) ? links[name] : undefined;
      const nodes = items.get(name) ?? [];
      if (!href || nodes.length === 0) throw new AppError(LINK_ERRORS.LINK_UNKNOWN);
      const visible = nodes.filter((node) => isAllowed(session, { accessAny: node.access ?? [] }) && (!node.seedOnly || session.user.isUserSeed === 1));
      if (visible.length === 0) throw new AppError('FORBIDDEN');
      const append = visible.find((node) => node.hrefAppend)?.hrefAppend;
      const url = new URL(href);
      if (append === 'userId' || (append && app.config.externalLinkIdentity === 'userId')) url.searchParams.set('userId', session.user.id);
      else if (append) url.searchParams.set('token', await issueLinkToken(app.db, key(), session.user.id, name));
      const answer: LinkAddress = { url: url.toString() };
      return reply.ok(answer);
    },
  });

  const verify = async (request: FastifyRequest) => {
    const given = { ...(request.body as Record<string, unknown> | undefined), ...(request.query as Record<string, unknown>) }.token;
    const { userId, link } = await redeemLinkToken(app.db, key(), given);
    const row = await app.db
      .selectFrom('sys_user')
      .innerJoin('sys_unit', 'sys_unit.id', 'sys_user.unit_id')
      .select(['sys_user.login_name', 'sys_user.name', 'sys_unit.orgname', 'sys_unit.orgcode'])
      .where('sys_user.id', '=', userId)
      .where('sys_user.status', '=', '0')
      .executeTakeFirst();
    if (!row) throw new AppError(LINK_ERRORS.LINK_TOKEN_INVALID);
    const identity: LinkIdentity = { link, loginName: row.login_name, name: row.name, unitName: row.orgname, creditCode: row.orgcode };
    return identity;
  };
  const verifyRoute = {
    config: { public: true, rateLimit: { groupId: 'link-verify', max: VERIFY_PER_MINUTE, timeWindow: 60_000 } },
    schema: { summary: 'Redeem an external-link token once: who it was issued to', tags, response: { 200: envelopeOf(identitySchema), ...failureResponses } },
  };
  app.get(LINK_API.verify, { ...verifyRoute, schema: { ...verifyRoute.schema, querystring: tokenInput } }, async (request, reply) =>
    reply.ok(await verify(request)),
  );
  app.post(LINK_API.verify, { ...verifyRoute, schema: { ...verifyRoute.schema, body: tokenInput } }, async (request, reply) => reply.ok(await verify(request)));
};

export default externalLinkRoutes;
