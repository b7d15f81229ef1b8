/**
 * The external simple declaration (外部简易申报, /dlgzh): an outside party — no account — files a
 * short declaration proved by its mobile's SMS code, and reads its list and details by that mobile.
 *
 *   POST smsCode { mobile }                       a 6-digit code (services/sms.ts: 5 minutes, single use, 1/min, 10/day)
 *   POST login   { mobile, code }                 the code (used up) → an access token for 30 minutes
 *   POST save    { access | mobile + code, … }    files a declaration for that mobile → { id, declNo, access }
 *   GET  list    ?access=                         that mobile's declarations, newest first (paged)
 *   GET  detail  ?access=&id=                     one of them; another mobile's answers 记录不存在或无权访问
 *
 * Only the SHA-256 of an access token is stored (ext_declaration_access, migration 0012). Every
 * route is open and rate-limited per address.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { rules } from '../../../../validators';
import { DECLARATION_API, DECLARATION_CATEGORIES, type Declaration, type DeclarationAccess } from '../../../shared/declaration';
import { todayIn } from '../../../shared/dates';
import { newId } from '../../db/ids';
import { pageOffset } from '../../db/sql';
import { page } from '../../envelope';
import { AppError, defineErrors } from '../../errors';
import { nextSequence } from '../../resources/hooks';
import { SMS_ERRORS, smsService } from '../../services/sms';
import type { DemoContext } from '../../db/demo/context';
import type { DomainFeature } from '../feature';
import { failureResponses, pageQueryProperties } from '../../../shared/wire';

const ERRORS = defineErrors({
  DECLARATION_ACCESS_EXPIRED: { status: 200, message: '验证已过期，请重新获取短信验证码' },
  DECLARATION_INVALID: { status: 200, message: '请完整填写申报人、事项类别、标题和申报内容' },
});

const ACCESS_MINUTES = 30;
const PURPOSE = 'dlgzh';

interface DeclarationTable {
  id: string;
  decl_no: string;
  mobile: string;
  declarant: string;
  category: string;
  title: string;
  address: string | null;
  content: string;
  status: string;
  created_at: Date;
}
interface AccessTable {
  token_hash: string;
  mobile: string;
  expires_at: Date;
}
type Tables = { ext_declaration: DeclarationTable; ext_declaration_access: AccessTable };

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const str = (max: number) => ({ type: 'string', maxLength: max }) as const;

function toDeclaration(r: DeclarationTable): Declaration {
  return { id: r.id, declNo: r.decl_no, mobile: r.mobile, declarant: r.declarant, category: r.category, title: r.title, address: r.address ?? undefined, content: r.content, status: r.status, createDate: r.created_at.toISOString() };
}

const routes: FastifyPluginAsync = async (app) => {
  const db = app.db as unknown as Kysely<Tables>;
  const sms = smsService(app);
  const open = { public: true, rateLimit: { max: 30, timeWindow: 60_000 } };

  async function grant(mobile: string): Promise<DeclarationAccess> {
    const access = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ACCESS_MINUTES * 60_000);
    await db.deleteFrom('ext_declaration_access').where('expires_at', '<', new Date()).execute();
    await db.insertInto('ext_declaration_access').values({ token_hash: hashOf(access), mobile, expires_at: expiresAt }).execute();
    return { access, mobile, expiresAt: expiresAt.toISOString() };
  }

  async function mobileOf(access: unknown): Promise<string> {
    if (typeof access !== 'string' || !/^[\w-]{43}$/.test(access)) throw new AppError(ERRORS.DECLARATION_ACCESS_EXPIRED);
    const row = await db.selectFrom('ext_declaration_access').select('mobile').where('token_hash', '=', hashOf(access)).where('expires_at', '>', new Date()).executeTakeFirst();
    if (!row) throw new AppError(ERRORS.DECLARATION_ACCESS_EXPIRED);
    return row.mobile;
  }

  async function verified(mobile: unknown, code: unknown): Promise<string> {
    if (typeof mobile !== 'string' || rules.mobile(mobile)) throw new AppError(SMS_ERRORS.SMS_MOBILE_INVALID);
    if (!(await sms.verify(PURPOSE, mobile, code))) throw new AppError(SMS_ERRORS.SMS_CODE_INVALID);
    return mobile;
  }

  app.post<{ Body: { mobile: string } }>(DECLARATION_API.smsCode, {
    config: open,
    schema: { summary: 'Send an SMS code to the declarant’s mobile', tags: ['declaration'], body: { type: 'object', properties: { mobile: str(20) }, required: ['mobile'] }, response: failureResponses },
    handler: async (request, reply) => {
      const { mobile } = request.body;
      if (rules.mobile(mobile)) throw new AppError(SMS_ERRORS.SMS_MOBILE_INVALID);
      await sms.send(PURPOSE, mobile);
      return reply.ok(null, '验证码已发送');
    },
  });

  app.post<{ Body: { mobile: string; code: string } }>(DECLARATION_API.login, {
    config: open,
    schema: { summary: 'Prove a mobile with its SMS code: access to its declarations', tags: ['declaration'], body: { type: 'object', properties: { mobile: str(20), code: str(10) }, required: ['mobile', 'code'] }, response: failureResponses },
    handler: async (request, reply) => reply.ok(await grant(await verified(request.body.mobile, request.body.code))),
  });

  app.post<{ Body: Record<string, string | undefined> }>(DECLARATION_API.save, {
    config: open,
    schema: {
      summary: 'File a declaration (with an access token or the mobile and its SMS code)',
      tags: ['declaration'],
      body: {
        type: 'object',
        properties: { access: str(64), mobile: str(20), code: str(10), declarant: str(100), category: str(20), title: str(100), address: str(200), content: str(2000) },
        required: ['declarant', 'category', 'title', 'content'],
      },
      response: failureResponses,
    },
    handler: async (request, reply) => {
      const b = request.body;
      const values = { declarant: (b.declarant ?? '').trim(), category: b.category ?? '', title: (b.title ?? '').trim(), address: b.address?.trim() || null, content: (b.content ?? '').trim() };
      if (!values.declarant || !values.title || !values.content || !(values.category in DECLARATION_CATEGORIES)) throw new AppError(ERRORS.DECLARATION_INVALID);
      const mobile = b.access ? await mobileOf(b.access) : await verified(b.mobile, b.code);
      const id = newId();
      const declNo = await db.transaction().execute(async (trx) => {
        const today = todayIn().replace(/-/g, '');
        const seq = await nextSequence(trx, `serial:ext_declaration:JY${today}`);
        const no = `JY${today}${String(seq).padStart(4, '0')}`;
        await trx.insertInto('ext_declaration').values({ id, decl_no: no, mobile, ...values, status: 'submitted', created_at: sql<Date>`now()` as never }).execute();
        return no;
      });
      const access = b.access ? { access: b.access, mobile, expiresAt: '' } : await grant(mobile);
      return reply.ok({ id, declNo, ...access }, '申报已提交');
    },
  });

  app.get<{ Querystring: { access: string; pageNo: number; pageSize: number } }>(DECLARATION_API.list, {
    config: open,
    schema: { summary: 'The declarations of the proved mobile (paged)', tags: ['declaration'], querystring: { type: 'object', properties: { access: str(64), ...pageQueryProperties }, required: ['access'] }, response: failureResponses },
    handler: async (request, reply) => {
      const mobile = await mobileOf(request.query.access);
      const { pageNo, pageSize } = request.query;
      const query = db.selectFrom('ext_declaration').where('mobile', '=', mobile);
      const [{ count }, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
        query.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(pageSize).offset(pageOffset(pageNo, pageSize)).execute(),
      ]);
      return reply.ok(page(rows.map(toDeclaration), Number(count), pageNo, pageSize));
    },
  });

  app.get<{ Querystring: { access: string; id: string } }>(DECLARATION_API.detail, {
    config: open,
    schema: { summary: 'One declaration of the proved mobile', tags: ['declaration'], querystring: { type: 'object', properties: { access: str(64), id: str(64) }, required: ['access', 'id'] }, response: failureResponses },
    handler: async (request, reply) => {
      const mobile = await mobileOf(request.query.access);
      const row = await db.selectFrom('ext_declaration').selectAll().where('id', '=', request.query.id).where('mobile', '=', mobile).executeTakeFirst();
      if (!row) throw new AppError('RECORD_NOT_FOUND');
      return reply.ok(toDeclaration(row));
    },
  });
};

/** The demo mobile whose declarations the demo shows (its code is in sys_sms_outbox when asked for). */
export const DEMO_DECLARATION_MOBILE = '13805740099';

/** Two demo declarations of the demo mobile, one accepted: /dlgzhList is not empty for the demo. */
async function seed(demo: DemoContext): Promise<Record<string, number>> {
  const db = demo.db as unknown as Kysely<Tables>;
  const existing = await db.selectFrom('ext_declaration').select('id').where('mobile', '=', DEMO_DECLARATION_MOBILE).limit(1).execute();
  if (existing.length) return { declarations: 0 };
  const rows = [
    { category: 'danger', title: '小区电梯运行异响', address: '宁波市鄞州区天童南路某小区5号楼', content: '5号楼东侧电梯上下运行时有明显异响，停靠时晃动，请安排检查。', status: 'accepted', days: 6 },
    { category: 'consult', title: '商场自动扶梯检验周期咨询', address: '宁波市海曙区中山西路', content: '想了解商场自动扶梯的定期检验周期和公示要求。', status: 'submitted', days: 1 },
  ];
  for (const r of rows) {
    const created = new Date(Date.now() - r.days * 86_400_000);
    const day = todayIn(undefined, created).replace(/-/g, '');
    await db
      .insertInto('ext_declaration')
      .values({ id: newId(), decl_no: `JY${day}${String(await nextSequence(db, `serial:ext_declaration:JY${day}`)).padStart(4, '0')}`, mobile: DEMO_DECLARATION_MOBILE, declarant: '王先生', category: r.category, title: r.title, address: r.address, content: r.content, status: r.status, created_at: created })
      .execute();
  }
  return { declarations: rows.length };
}

export const simpleDeclarationFeature: DomainFeature = { name: 'simple-declaration', routes, seed };
