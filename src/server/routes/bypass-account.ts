/** Sub-accounts (bypass accounts) of the current unit: the system menu, seed user only. */
import type { FastifyPluginAsync } from 'fastify';
import { API } from '../../shared/contract';
import { ACCESS } from '../access';
import { containsPattern, pageOffset } from '../db/sql';
import { page } from '../envelope';
import { ownedByUnit } from '../plugins/tenant';
import { envelopeOf, failureResponses, pageOf, pageQueryProperties } from '../../shared/wire';

interface ListQuery {
  pageNo: number;
  pageSize: number;
  loginName?: string;
  name?: string;
}

const accountSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    loginName: { type: 'string' },
    name: { type: 'string' },
    mobile: { type: ['string', 'null'] },
    phone: { type: ['string', 'null'] },
    status: { type: 'string' },
    createDate: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'loginName', 'name', 'status', 'createDate'],
} as const;

const bypassAccountRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: ListQuery }>(API.bypassAccountList, {
    config: { access: ACCESS.bypassAccount, seedOnly: true },
    schema: {
      summary: 'Sub-accounts of the current unit (paged; filters loginName, name)',
      tags: ['system'],
      querystring: {
        type: 'object',
        properties: { ...pageQueryProperties, loginName: { type: 'string', maxLength: 100 }, name: { type: 'string', maxLength: 100 } },
      },
      response: { 200: envelopeOf(pageOf(accountSchema)), ...failureResponses },
    },
    handler: async (request, reply) => {
      const { pageNo, pageSize, loginName, name } = request.query;
      let query = app.db.selectFrom('sys_user').where(ownedByUnit(request.tenant)).where('basic_unit_flag', '=', 1);
      if (loginName?.trim()) query = query.where('login_name', 'ilike', containsPattern(loginName.trim()));
      if (name?.trim()) query = query.where('name', 'ilike', containsPattern(name.trim()));

      const [{ count }, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
        query
          .select(['id', 'login_name', 'name', 'mobile', 'phone', 'status', 'created_at'])
          .orderBy('login_name')
          .limit(pageSize)
          .offset(pageOffset(pageNo, pageSize))
          .execute(),
      ]);
      const list = rows.map((r) => ({ id: r.id, loginName: r.login_name, name: r.name, mobile: r.mobile, phone: r.phone, status: r.status, createDate: r.created_at.toISOString() }));
      return reply.ok(page(list, Number(count), pageNo, pageSize));
    },
  });
};

export default bypassAccountRoutes;
