/**
 * Account management routes (services/accounts.ts holds the rules):
 *
 *   the unit's main account (system menu, seed user only) over its sub-accounts:
 *     GET  /a/stone/unit/bypassAccount/list|get|menus   POST .../save|disable|enable
 *   the authority (account menu) over the accounts of its area, and its own staff accounts:
 *     GET  /a/stone/account/list|get|menus              POST .../save|disable|enable|unlock
 *   any signed-in user: the flow log of one record it may see, by the record's id:
 *     GET  /a/stone/flowLog/single?id=
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { ACCOUNT_API, type AccountSaveInput } from '../../shared/accounts';
import { STANDARD_ACTIONS } from '../../schema/model';
import { ACCESS } from '../access';
import { page } from '../envelope';
import { AppError } from '../errors';
import { isAllowed } from '../plugins/rbac';
import { getFlowLog } from '../resources/records';
import { actorOf } from '../resources/scope';
import { cipherOf } from '../resources/sealed-fields';
import {
  disableAccount,
  enableAccount,
  getAccount,
  grantableMenuTree,
  listAccounts,
  saveSubAccount,
  unlockAccount,
  type AccountListQuery,
  type AccountScope,
  type Manager,
} from '../services/accounts';
import { envelopeOf, failureResponses, flowLogEntrySchema, pageQueryProperties } from '../../shared/wire';

const str = (max: number) => ({ type: 'string', maxLength: max }) as const;

const listQuerySchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    loginName: str(100),
    name: str(100),
    orgname: str(200),
    status: { type: 'string', enum: ['', '0', '2'] },
    kind: { type: 'string', enum: ['', 'main', 'sub'] },
    locked: { type: 'boolean' },
    orderBy: str(40),
  },
} as const;

const idSchema = { type: 'object', properties: { id: str(64) }, required: ['id'] } as const;

const saveBodySchema = {
  type: 'object',
  properties: {
    id: str(64),
    loginName: str(100),
    name: str(100),
    mobile: str(20),
    phone: str(30),
    roleName: str(100),
    menuIds: { type: 'array', maxItems: 500, items: str(120) },
  },
  required: ['loginName', 'name', 'mobile', 'roleName', 'menuIds'],
} as const;

function managerOf(request: FastifyRequest): Manager {
  const actor = actorOf(request);
  return {
    userId: actor.userId,
    unitId: actor.unitId,
    areaCode: actor.areaCode,
    roleType: actor.roleType,
    oversees: actor.oversees,
    cipher: cipherOf(request.server.config),
  };
}

type Input = Record<string, unknown>;
const asObject = (value: unknown): Input => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Input) : {});
const idOf = (request: FastifyRequest): unknown => ({ ...asObject(request.query), ...asObject(request.body) }).id;

const bypassAccountRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app;

  /** The routes of one manager kind: `scope` says which accounts it sees. */
  function managerRoutes(
    scope: AccountScope,
    paths: { list: string; get: string; menus: string; save: string; disable: string; enable: string; unlock?: string },
    access: { read: readonly string[]; save: string; change: string; seedOnly?: boolean },
    tags: string[],
  ) {
    const seedOnly = access.seedOnly ? { seedOnly: true } : {};
    app.get<{ Querystring: AccountListQuery }>(paths.list, {
      config: { accessAny: access.read, ...seedOnly },
      schema: {
        summary: scope === 'unit' ? 'Sub-accounts of the current unit (paged)' : 'Accounts of the units in the authority’s area (paged)',
        tags,
        querystring: listQuerySchema,
        response: failureResponses,
      },
      handler: async (request, reply) => {
        const q = request.query;
        const { list, count } = await listAccounts(db, managerOf(request), scope, { ...q, kind: q.kind || undefined, status: q.status || undefined });
        return reply.ok(page(list, count, q.pageNo, q.pageSize));
      },
    });
    app.get(paths.get, {
      config: { accessAny: access.read, ...seedOnly },
      schema: { summary: 'One account with its roles and menus', tags, querystring: idSchema, response: failureResponses },
      handler: async (request, reply) => reply.ok(await getAccount(db, managerOf(request), scope, idOf(request))),
    });
    app.get(paths.menus, {
      config: { accessAny: [...access.read, access.save], ...seedOnly },
      schema: {
        summary: 'The menu access ids the current account may grant to a sub-account, as the menu’s tree of options',
        tags,
        response: failureResponses,
      },
      handler: async (request, reply) => reply.ok(await grantableMenuTree(db, managerOf(request).userId)),
    });
    app.post<{ Body: AccountSaveInput }>(paths.save, {
      config: { access: access.save, ...seedOnly },
      schema: {
        summary: 'Create (no id) or edit a sub-account of the own unit, with its role limited to the own menus',
        tags,
        body: saveBodySchema,
        response: failureResponses,
      },
      handler: async (request, reply) => {
        const result = await saveSubAccount(db, managerOf(request), request.body);
        return reply.ok(result, request.body.id ? '保存成功' : '账号已创建');
      },
    });
    app.post(paths.disable, {
      config: { access: access.change, ...seedOnly },
      schema: { summary: 'Disable an account (its sessions end)', tags, body: idSchema, response: failureResponses },
      handler: async (request, reply) => {
        await disableAccount(db, managerOf(request), scope, idOf(request));
        return reply.ok(null, '账号已停用');
      },
    });
    app.post(paths.enable, {
      config: { access: access.change, ...seedOnly },
      schema: { summary: 'Enable a disabled account', tags, body: idSchema, response: failureResponses },
      handler: async (request, reply) => {
        await enableAccount(db, managerOf(request), scope, idOf(request));
        return reply.ok(null, '账号已启用');
      },
    });
    if (paths.unlock) {
      app.post(paths.unlock, {
        config: { access: access.change, ...seedOnly },
        schema: { summary: 'Lift the lock of five wrong passwords', tags, body: idSchema, response: failureResponses },
        handler: async (request, reply) => {
          await unlockAccount(db, managerOf(request), scope, idOf(request));
          return reply.ok(null, '账号已解锁');
        },
      });
    }
  }

  managerRoutes(
    'unit',
    {
      list: ACCOUNT_API.subList,
      get: ACCOUNT_API.subGet,
      menus: ACCOUNT_API.subMenus,
      save: ACCOUNT_API.subSave,
      disable: ACCOUNT_API.subDisable,
      enable: ACCOUNT_API.subEnable,
    },
    { read: [ACCESS.bypassAccount], save: ACCESS.bypassAccount, change: ACCESS.bypassAccount, seedOnly: true },
    ['system'],
  );

  // The authority: its area's accounts (list, detail, disable, unlock) and staff accounts of its own unit (add-account).
  managerRoutes(
    'area',
    {
      list: ACCOUNT_API.list,
      get: ACCOUNT_API.get,
      menus: ACCOUNT_API.menus,
      save: ACCOUNT_API.save,
      disable: ACCOUNT_API.disable,
      enable: ACCOUNT_API.enable,
      unlock: ACCOUNT_API.unlock,
    },
    { read: [ACCESS.accountManager, ACCESS.accountManagerSub, ACCESS.accountDetail], save: ACCESS.accountAdd, change: ACCESS.accountManager },
    ['account'],
  );

  app.get<{ Querystring: { id: string; resource?: string } }>(ACCOUNT_API.flowLogSingle, {
    schema: {
      summary: 'The flow log of one record by its id (any resource the session may read and see the record of)',
      tags: ['flowLog'],
      querystring: { type: 'object', properties: { id: str(64), resource: str(100) }, required: ['id'] },
      response: {
        200: envelopeOf({
          type: 'object',
          properties: {
            resource: { type: 'string' },
            title: { type: 'string' },
            states: { type: 'object', additionalProperties: { type: 'string' } },
            actions: { type: 'object', additionalProperties: { type: 'string' } },
            list: { type: 'array', items: flowLogEntrySchema },
          },
        }),
        ...failureResponses,
      },
    },
    handler: async (request, reply) => {
      const { id, resource } = request.query;
      const session = request.session!;
      const actor = actorOf(request);
      // Which resources hold a log for this id (one, in practice); the record must be visible through one of them.
      const names = resource
        ? [resource]
        : (await sql<{ resource: string }>`SELECT DISTINCT resource FROM sys_flow_log WHERE record_id = ${id}`.execute(db)).rows.map((r) => r.resource);
      for (const name of names) {
        const compiled = app.resources.get(name);
        if (!compiled?.model.workflow || !isAllowed(session, { accessAny: compiled.model.access })) continue;
        try {
          const list = await getFlowLog(db, compiled.model, actor, id);
          const { workflow } = compiled.model;
          const states = Object.fromEntries(workflow.states.map((s) => [s.code, s.label]));
          const actions = Object.fromEntries(Object.entries(workflow.actions ?? {}).map(([k, a]) => [k, a?.label ?? STANDARD_ACTIONS[k] ?? k]));
          return reply.ok({ resource: name, title: compiled.model.title, states, actions, list });
        } catch (err) {
          if ((err as AppError).code !== 'RECORD_NOT_FOUND') throw err;
        }
      }
      throw new AppError('RECORD_NOT_FOUND');
    },
  });
};

export default bypassAccountRoutes;
