/**
 * The authority's audit log screen (安全审计日志): the rows of sys_audit_log written by units and
 * people of its area — searched by unit, user, operation, resource, record and time, newest first,
 * a page at a time, and exported as XLSX with the same conditions.
 *
 * Who: a session holding the menu access id `account:audit-log` AND of an oversight role type
 * (PORTAL_OVERSIGHT_ROLE_TYPES, default `authority`); a using unit is refused (FORBIDDEN) even if a
 * role editor gave it the menu. What: rows whose area (the acting user's unit's area, recorded with
 * the row) lies in the session's area — the code and every code below it (330200 covers 3302xx).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { STANDARD_ACTIONS } from '../../schema/model';
import { envelopeOf, failureResponses } from '../../shared/wire';
import { escapeLike } from '../db/sql';
import { AppError } from '../errors';
import { requireSession } from '../plugins/session';
import { tenantOf } from '../plugins/tenant';
import { areaPrefix } from '../resources/scope';
import { contentDisposition, sheetName, XLSX_CONTENT_TYPE } from '../resources/xlsx/export';
import { writeSheet, type SheetColumn } from '../resources/xlsx/sheet-writer';
import type { AuditRow } from '../services/audit-chain';
import { PassThrough } from 'node:stream';

export const AUDIT_LOG_ACCESS = 'account:audit-log';
const TITLE = '安全审计日志';

/** Operations that are not a workflow action of a resource. */
const OPERATION_LABELS: Readonly<Record<string, string>> = {
  insert: '新增',
  update: '修改',
  ...STANDARD_ACTIONS,
  login: '登录成功',
  'login-failed': '登录失败',
  logout: '退出登录',
  'password-change': '修改密码',
  'view-unmasked': '查看完整信息',
};
/** Areas that are not resources (security events). */
const SYSTEM_RESOURCES: Readonly<Record<string, string>> = { auth: '登录与账号安全' };

interface Tables {
  sys_audit_log: AuditRow;
  sys_unit: { id: string; orgname: string };
}

interface Query {
  unitName?: string;
  userName?: string;
  operation?: string;
  resource?: string;
  recordId?: string;
  /** ISO times (inclusive from, exclusive to) or dates YYYY-MM-DD (to: the whole day). */
  from?: string;
  to?: string;
  pageNo?: number;
  pageSize?: number;
  /** By time: `desc` (default, newest first) or `asc`. */
  order?: 'asc' | 'desc';
}

const str = { type: 'string', maxLength: 100 } as const;
const querySchema = {
  type: 'object',
  properties: { unitName: str, userName: str, operation: str, resource: str, recordId: str, from: { type: 'string', maxLength: 40 }, to: { type: 'string', maxLength: 40 }, pageNo: { type: 'integer', minimum: 1, maximum: 100000 }, pageSize: { type: 'integer', minimum: 1, maximum: 200 }, order: { type: 'string', enum: ['asc', 'desc'] } },
} as const;

/** The session's area prefix, or FORBIDDEN for a role type that oversees nothing. */
function areaOf(request: FastifyRequest): string {
  const session = requireSession(request);
  if (!session.role || !request.server.config.oversightRoleTypes.includes(session.role.roleType)) throw new AppError('FORBIDDEN');
  return areaPrefix(tenantOf(request).areaCode);
}

/** A date `YYYY-MM-DD` is the start of that day in China; `end` takes the next day's start. */
function timeOf(text: string | undefined, end: boolean): Date | undefined {
  if (!text) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const time = new Date(day ? `${text}T00:00:00+08:00` : text);
  if (Number.isNaN(time.getTime())) throw new AppError('BAD_REQUEST');
  return day && end ? new Date(time.getTime() + 86_400_000) : time;
}

type Builder = SelectQueryBuilder<{ a: AuditRow; u: Tables['sys_unit'] }, 'a' | 'u', object>;

function filtered(db: Kysely<Tables>, prefix: string, q: Query): Builder {
  let query = db
    .selectFrom('sys_audit_log as a')
    .leftJoin('sys_unit as u', 'u.id', 'a.unit_id')
    .where('a.area_code', 'like', `${escapeLike(prefix)}%`) as unknown as Builder;
  const contains = (text: string) => `%${escapeLike(text.trim())}%`;
  if (q.unitName?.trim()) query = query.where('u.orgname', 'like', contains(q.unitName));
  if (q.userName?.trim()) query = query.where('a.user_name', 'like', contains(q.userName));
  if (q.operation) query = query.where('a.operation', '=', q.operation);
  if (q.resource) query = query.where('a.resource', '=', q.resource);
  if (q.recordId?.trim()) query = query.where('a.record_id', '=', q.recordId.trim());
  const from = timeOf(q.from, false);
  const to = timeOf(q.to, true);
  if (from) query = query.where('a.created_at', '>=', from as never);
  if (to) query = query.where('a.created_at', '<', to as never);
  return query;
}

interface Change {
  label?: string;
  field?: string;
  from?: string;
  to?: string;
}

/** `标题：旧 → 新` per changed field (a value set from nothing: `标题：新`), one per line. */
export function changesText(changes: unknown): string {
  const list = (typeof changes === 'string' ? JSON.parse(changes) : changes) as Change[] | null;
  if (!Array.isArray(list)) return '';
  return list.map((c) => `${c.label ?? c.field ?? ''}：${c.from ? `${c.from} → ${c.to || '（空）'}` : (c.to ?? '')}`).join('\n');
}

const auditLogRoutes: FastifyPluginAsync = async (app) => {
  const db = () => app.db as unknown as Kysely<Tables>;
  const resourceTitle = (name: string) => app.resources.get(name)?.model.title ?? SYSTEM_RESOURCES[name] ?? name;
  const operationLabel = (resource: string, operation: string) =>
    app.resources.get(resource)?.model.workflow?.actions[operation]?.label ?? OPERATION_LABELS[operation] ?? operation;

  const rowsOf = (rows: Array<AuditRow & { unit_name: string | null }>) =>
    rows.map((r) => ({
      id: r.id,
      seq: Number(r.seq),
      time: new Date(r.created_at).toISOString(),
      unitId: r.unit_id,
      unitName: r.unit_name,
      areaCode: r.area_code,
      userId: r.user_id,
      userName: r.user_name,
      resource: r.resource,
      resourceTitle: resourceTitle(r.resource),
      recordId: r.record_id,
      operation: r.operation,
      operationLabel: operationLabel(r.resource, r.operation),
      changes: (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes) as Change[],
    }));

  const config = { access: AUDIT_LOG_ACCESS };

  app.get('/audit/options', {
    config,
    schema: { summary: 'Choices of the audit log search: resources and operations with their Chinese names', tags: ['audit'], response: { 200: envelopeOf(), ...failureResponses } },
    handler: async (request, reply) => {
      const prefix = areaOf(request);
      const present = await db()
        .selectFrom('sys_audit_log')
        .select(['resource', 'operation'])
        .where('area_code', 'like', `${escapeLike(prefix)}%`)
        .groupBy(['resource', 'operation'])
        .execute();
      const resources = [...new Set(present.map((p) => p.resource))].map((value) => ({ value, label: resourceTitle(value) })).sort((a, b) => a.label.localeCompare(b.label, 'zh-CN'));
      const operations = new Map<string, string>();
      for (const p of present) if (!operations.has(p.operation)) operations.set(p.operation, operationLabel(p.resource, p.operation));
      return reply.ok({ resources, operations: [...operations].map(([value, label]) => ({ value, label })) });
    },
  });

  app.get<{ Querystring: Query }>('/audit/list', {
    config,
    schema: { summary: 'The audit log of the authority’s area, newest first, a page at a time', tags: ['audit'], querystring: querySchema, response: { 200: envelopeOf(), ...failureResponses } },
    handler: async (request, reply) => {
      const prefix = areaOf(request);
      const q = request.query;
      const pageNo = q.pageNo ?? 1;
      const pageSize = q.pageSize ?? 20;
      const base = filtered(db(), prefix, q);
      const { count } = await base.select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow() as { count: number };
      const rows = await base
        .selectAll('a')
        .select('u.orgname as unit_name')
        .orderBy('a.seq', q.order === 'asc' ? 'asc' : 'desc')
        .limit(pageSize)
        .offset((pageNo - 1) * pageSize)
        .execute();
      return reply.ok({ pageNo, pageSize, count, list: rowsOf(rows as never) });
    },
  });

  app.get<{ Querystring: Query }>('/audit/export', {
    config,
    schema: { summary: 'The audit log search as an XLSX file', tags: ['audit'], querystring: querySchema },
    handler: async (request, reply) => {
      const prefix = areaOf(request);
      const q = request.query;
      const base = filtered(db(), prefix, q);
      const max = app.config.exportMaxRows;
      const { count } = await base.select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow() as { count: number };
      if (count > max) throw new AppError('EXPORT_TOO_LARGE', undefined, { count, max });
      const rows = rowsOf((await base.selectAll('a').select('u.orgname as unit_name').orderBy('a.seq', q.order === 'asc' ? 'asc' : 'desc').execute()) as never);
      const columns: SheetColumn[] = [
        { header: '时间', width: 20, numFmt: 'yyyy-mm-dd hh:mm:ss' },
        { header: '单位', width: 28 },
        { header: '操作人', width: 12 },
        { header: '操作', width: 12 },
        { header: '业务', width: 18 },
        { header: '记录编号', width: 34 },
        { header: '变更内容', width: 60 },
      ];
      const out = new PassThrough();
      reply.header('content-disposition', contentDisposition('audit-log', TITLE)).type(XLSX_CONTENT_TYPE).send(out);
      const sheet = writeSheet(out, sheetName(TITLE), columns);
      // Excel has no time zones: the time as it reads in China.
      const local = (iso: string) => new Date(new Date(iso).getTime() + 8 * 3_600_000);
      await sheet.addRows(rows.map((r) => [local(r.time), r.unitName ?? '', r.userName ?? '', r.operationLabel, r.resourceTitle, r.recordId, changesText(r.changes)]));
      await sheet.finish();
      return reply;
    },
  });
};

export default auditLogRoutes;
