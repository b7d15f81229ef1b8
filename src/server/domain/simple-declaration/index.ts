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
 *
 * The table is the resource `simple-declaration` (migration 0017): a filing is owned by the area its
 * address names (a district of the portal's area, else the portal's area: `areaOfAddress`) and gets
 * its 受理期限 from the category (`dueDateOf`); the authority of that area accepts, returns or closes
 * it through the resource engine (/account/declaration-audit).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { rules } from '../../../../validators';
import { DECLARATION_API, DECLARATION_CATEGORIES, type Declaration, type DeclarationAccess } from '../../../shared/declaration';
import { addToDate, todayIn } from '../../../shared/dates';
import type { DictItem } from '../../../schema/types';
import { newId } from '../../db/ids';
import { pageOffset } from '../../db/sql';
import { page } from '../../envelope';
import { AppError, defineErrors } from '../../errors';
import { dictData } from '../../resources/dicts';
import { nextSequence, type HookContext } from '../../resources/hooks';
import { writeFlowLog } from '../../resources/flow-log';
import { runAction } from '../../resources/record-actions';
import type { ResourceModel } from '../../resources/model';
import { areaPrefix } from '../../resources/scope';
import { cipherOf, openValue, sealedEquals, sealValue, sealValues } from '../../resources/sealed-fields';
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
  area_code: string;
  district: string;
  due_date: string;
}
interface AccessTable {
  token_hash: string;
  mobile: string;
  expires_at: Date;
}
type Tables = { ext_declaration: DeclarationTable; ext_declaration_access: AccessTable };

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const str = (max: number) => ({ type: 'string', maxLength: max }) as const;

/** The resource the table is (schemas/resources/simple-declaration.json). */
export const DECLARATION_RESOURCE = 'simple-declaration';
type Dicts = HookContext['dicts'];

/**
 * The area a declaration belongs to: the most specific area of the portal's area (`portalArea` and
 * the codes below it, dictionary `area`) whose name the address contains, else the portal's area.
 */
export function areaOfAddress(dicts: Dicts, address: string | null | undefined, portalArea: string): string {
  const prefix = areaPrefix(portalArea);
  let best: { code: string; depth: number } | undefined;
  const visit = (items: readonly DictItem[], depth: number) => {
    for (const item of items) {
      if (item.value.startsWith(prefix) && address?.includes(item.label) && (!best || depth > best.depth)) best = { code: item.value, depth };
      visit(item.children ?? [], depth + 1);
    }
  };
  visit(dicts.get('area') ?? [], 0);
  return best?.code ?? portalArea;
}

/** 受理期限: the filing day (China time) plus the category's `acceptDays` (dictionary declaration-category; 7 when absent). */
export function dueDateOf(dicts: Dicts, category: string, filed: Date): string {
  return addToDate(todayIn(undefined, filed), dictData<number>(dicts, 'declaration-category', [category], 'acceptDays') ?? 7, 'd');
}

/** Who filed a declaration, as the flow log names the one who acted (no account: a fixed id). */
const DECLARANT_ID = '0'.repeat(32);

type Filing = Pick<DeclarationTable, 'mobile' | 'declarant' | 'category' | 'title' | 'address' | 'content'>;

/**
 * Writes a new declaration filed at `filed`: its number, its area (areaOfAddress), its 受理期限
 * (dueDateOf), state 已提交, and the flow log's 提交 by the declarant. Returns its id and number.
 */
/** The declarations of `mobile`: through its blind index when the column is encrypted (PORTAL_CRYPTO=sm: resources/sealed-fields.ts). */
function ofMobile(model: ResourceModel | undefined, mobile: string) {
  const f = model?.byName.get('mobile');
  return f?.sealed ? sealedEquals(model!, f, mobile) : sql<boolean>`mobile = ${mobile}`;
}

/** A stored row with its mobile opened (whole: the declarant proved it). */
function opened(model: ResourceModel | undefined, row: DeclarationTable): DeclarationTable {
  return model?.cipher ? { ...row, mobile: model.cipher.open(row.mobile) } : row;
}

async function fileDeclaration(
  db: Kysely<Tables>,
  model: ResourceModel | undefined,
  dicts: Dicts,
  portalArea: string,
  filing: Filing,
  filed: Date,
): Promise<{ id: string; declNo: string }> {
  const id = newId();
  const day = todayIn(undefined, filed).replace(/-/g, '');
  const declNo = `JY${day}${String(await nextSequence(db, `serial:ext_declaration:JY${day}`)).padStart(4, '0')}`;
  const area = areaOfAddress(dicts, filing.address, portalArea);
  await db
    .insertInto('ext_declaration')
    .values({
      id,
      decl_no: declNo,
      ...filing,
      ...((model ? sealValues(model, { mobile: filing.mobile }) : {}) as { mobile: string }),
      area_code: area,
      district: area,
      due_date: dueDateOf(dicts, filing.category, filed),
      status: 'submitted',
      created_at: filed,
    })
    .execute();
  const declarant = {
    userId: DECLARANT_ID,
    userName: `${filing.declarant}（申报人）`.slice(0, 100),
    unitId: DECLARANT_ID,
    areaCode: area,
    roleType: null,
    menuIds: [],
    oversees: false,
  };
  await writeFlowLog(db, declarant, { resource: DECLARATION_RESOURCE, recordId: id, action: 'commit', from: null, to: 'submitted' });
  return { id, declNo };
}

function toDeclaration(r: DeclarationTable): Declaration {
  return {
    id: r.id,
    declNo: r.decl_no,
    mobile: r.mobile,
    declarant: r.declarant,
    category: r.category,
    title: r.title,
    address: r.address ?? undefined,
    content: r.content,
    status: r.status,
    createDate: r.created_at.toISOString(),
  };
}

const routes: FastifyPluginAsync = async (app) => {
  const db = app.db as unknown as Kysely<Tables>;
  const sms = smsService(app);
  const dicts = (): Dicts => app.resources.get(DECLARATION_RESOURCE)?.runtime.dicts ?? new Map();
  const model = (): ResourceModel | undefined => app.resources.get(DECLARATION_RESOURCE)?.model;
  const open = { public: true, rateLimit: { max: 30, timeWindow: 60_000 } };

  async function grant(mobile: string): Promise<DeclarationAccess> {
    const access = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ACCESS_MINUTES * 60_000);
    await db.deleteFrom('ext_declaration_access').where('expires_at', '<', new Date()).execute();
    await db
      .insertInto('ext_declaration_access')
      .values({ token_hash: hashOf(access), mobile: sealValue(cipherOf(app.config), mobile), expires_at: expiresAt })
      .execute();
    return { access, mobile, expiresAt: expiresAt.toISOString() };
  }

  async function mobileOf(access: unknown): Promise<string> {
    if (typeof access !== 'string' || !/^[\w-]{43}$/.test(access)) throw new AppError(ERRORS.DECLARATION_ACCESS_EXPIRED);
    const row = await db
      .selectFrom('ext_declaration_access')
      .select('mobile')
      .where('token_hash', '=', hashOf(access))
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    if (!row) throw new AppError(ERRORS.DECLARATION_ACCESS_EXPIRED);
    return openValue(cipherOf(app.config), row.mobile);
  }

  async function verified(mobile: unknown, code: unknown): Promise<string> {
    if (typeof mobile !== 'string' || rules.mobile(mobile)) throw new AppError(SMS_ERRORS.SMS_MOBILE_INVALID);
    if (!(await sms.verify(PURPOSE, mobile, code))) throw new AppError(SMS_ERRORS.SMS_CODE_INVALID);
    return mobile;
  }

  app.post<{ Body: { mobile: string } }>(DECLARATION_API.smsCode, {
    config: open,
    schema: {
      summary: 'Send an SMS code to the declarant’s mobile',
      tags: ['declaration'],
      body: { type: 'object', properties: { mobile: str(20) }, required: ['mobile'] },
      response: failureResponses,
    },
    handler: async (request, reply) => {
      const { mobile } = request.body;
      if (rules.mobile(mobile)) throw new AppError(SMS_ERRORS.SMS_MOBILE_INVALID);
      await sms.send(PURPOSE, mobile);
      return reply.ok(null, '验证码已发送');
    },
  });

  app.post<{ Body: { mobile: string; code: string } }>(DECLARATION_API.login, {
    config: open,
    schema: {
      summary: 'Prove a mobile with its SMS code: access to its declarations',
      tags: ['declaration'],
      body: { type: 'object', properties: { mobile: str(20), code: str(10) }, required: ['mobile', 'code'] },
      response: failureResponses,
    },
    handler: async (request, reply) => reply.ok(await grant(await verified(request.body.mobile, request.body.code))),
  });

  app.post<{ Body: Record<string, string | undefined> }>(DECLARATION_API.save, {
    config: open,
    schema: {
      summary: 'File a declaration (with an access token or the mobile and its SMS code)',
      tags: ['declaration'],
      body: {
        type: 'object',
        properties: {
          access: str(64),
          mobile: str(20),
          code: str(10),
          declarant: str(100),
          category: str(20),
          title: str(100),
          address: str(200),
          content: str(2000),
        },
        required: ['declarant', 'category', 'title', 'content'],
      },
      response: failureResponses,
    },
    handler: async (request, reply) => {
      const b = request.body;
      const values = {
        declarant: (b.declarant ?? '').trim(),
        category: b.category ?? '',
        title: (b.title ?? '').trim(),
        address: b.address?.trim() || null,
        content: (b.content ?? '').trim(),
      };
      if (!values.declarant || !values.title || !values.content || !(values.category in DECLARATION_CATEGORIES)) throw new AppError(ERRORS.DECLARATION_INVALID);
      const mobile = b.access ? await mobileOf(b.access) : await verified(b.mobile, b.code);
      const { id, declNo } = await db
        .transaction()
        .execute((trx) => fileDeclaration(trx, model(), dicts(), app.config.areaCode, { mobile, ...values }, new Date()));
      const access = b.access ? { access: b.access, mobile, expiresAt: '' } : await grant(mobile);
      return reply.ok({ id, declNo, ...access }, '申报已提交');
    },
  });

  app.get<{ Querystring: { access: string; pageNo: number; pageSize: number } }>(DECLARATION_API.list, {
    config: open,
    schema: {
      summary: 'The declarations of the proved mobile (paged)',
      tags: ['declaration'],
      querystring: { type: 'object', properties: { access: str(64), ...pageQueryProperties }, required: ['access'] },
      response: failureResponses,
    },
    handler: async (request, reply) => {
      const mobile = await mobileOf(request.query.access);
      const { pageNo, pageSize } = request.query;
      const query = db.selectFrom('ext_declaration').where(ofMobile(model(), mobile));
      const [{ count }, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
        query.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(pageSize).offset(pageOffset(pageNo, pageSize)).execute(),
      ]);
      return reply.ok(
        page(
          rows.map((r) => toDeclaration(opened(model(), r))),
          Number(count),
          pageNo,
          pageSize,
        ),
      );
    },
  });

  app.get<{ Querystring: { access: string; id: string } }>(DECLARATION_API.detail, {
    config: open,
    schema: {
      summary: 'One declaration of the proved mobile',
      tags: ['declaration'],
      querystring: { type: 'object', properties: { access: str(64), id: str(64) }, required: ['access', 'id'] },
      response: failureResponses,
    },
    handler: async (request, reply) => {
      const mobile = await mobileOf(request.query.access);
      const row = await db.selectFrom('ext_declaration').selectAll().where('id', '=', request.query.id).where(ofMobile(model(), mobile)).executeTakeFirst();
      if (!row) throw new AppError('RECORD_NOT_FOUND');
      return reply.ok(toDeclaration(opened(model(), row)));
    },
  });
};

/** The demo mobile whose declarations the demo shows (its code is in sys_sms_outbox when asked for). */
export const DEMO_DECLARATION_MOBILE = '13805740099';

interface DemoDeclaration {
  mobile: string;
  declarant: string;
  category: string;
  title: string;
  address: string;
  content: string;
  /** Filed this many days ago. */
  days: number;
  /** The authority's answers, in order (action, opinion). */
  steps?: [string, string][];
}

/**
 * Demo declarations: the demo mobile's two (one accepted: /dlgzhList is not empty for the demo),
 * and others across 宁波's districts in every state, one past its 受理期限 and one near it, so the
 * authority's 简易申报受理 (jgadmin) has work and history.
 */
const DEMO_DECLARATIONS: DemoDeclaration[] = [
  {
    mobile: DEMO_DECLARATION_MOBILE,
    declarant: '王先生',
    category: 'danger',
    title: '小区电梯运行异响',
    address: '宁波市鄞州区天童南路某小区5号楼',
    content: '5号楼东侧电梯上下运行时有明显异响，停靠时晃动，请安排检查。',
    days: 6,
    steps: [['accept', '已转鄞州区市场监管所现场核查']],
  },
  {
    mobile: DEMO_DECLARATION_MOBILE,
    declarant: '王先生',
    category: 'consult',
    title: '商场自动扶梯检验周期咨询',
    address: '宁波市海曙区中山西路',
    content: '想了解商场自动扶梯的定期检验周期和公示要求。',
    days: 1,
  },
  {
    mobile: '13805740101',
    declarant: '李女士',
    category: 'fault',
    title: '港区门式起重机行走异常',
    address: '宁波市北仑区港城大道某码头',
    content: '码头2号门式起重机行走时有卡顿和异响，作业仍在继续，担心存在安全隐患。',
    days: 4,
  },
  {
    mobile: '13805740102',
    declarant: '陈先生',
    category: 'danger',
    title: '工地施工升降机无人持证操作',
    address: '宁波市江北区环城北路某工地',
    content: '工地施工升降机由未持证人员操作，且未见检验合格标志。',
    days: 5,
  },
  {
    mobile: '13805740103',
    declarant: '赵女士',
    category: 'other',
    title: '小区道路停车收费问题',
    address: '宁波市镇海区骆驼街道某小区',
    content: '小区道路停车收费标准不清楚，希望有关部门说明。',
    days: 12,
    steps: [['return', '所反映事项不属于特种设备安全监管范围，请向物价或住建部门反映']],
  },
  {
    mobile: '13805740104',
    declarant: '孙先生',
    category: 'fault',
    title: '浴室燃气锅炉冒黑烟',
    address: '宁波市慈溪市浒山街道某浴室',
    content: '浴室锅炉房烟囱近几日持续冒黑烟，锅炉运行声音异常。',
    days: 20,
    steps: [
      ['accept', '已安排慈溪市局现场检查'],
      ['close', '经现场检查，燃烧器风门调节不当，已责令使用单位停炉检修并复检合格'],
    ],
  },
  {
    mobile: '13805740105',
    declarant: '周先生',
    category: 'consult',
    title: '自家小型锅炉是否需要办理使用登记',
    address: '宁波市郊区',
    content: '家里准备装一台小型热水锅炉，想了解是否需要办理使用登记。',
    days: 0,
  },
];

async function seed(demo: DemoContext): Promise<Record<string, number>> {
  const db = demo.db as unknown as Kysely<Tables>;
  const compiled = demo.resource(DECLARATION_RESOURCE);
  const existing = await db.selectFrom('ext_declaration').select('id').where(ofMobile(compiled.model, DEMO_DECLARATION_MOBILE)).limit(1).execute();
  if (existing.length) return { declarations: 0 };
  for (const { days, steps, ...filing } of DEMO_DECLARATIONS) {
    const { id } = await fileDeclaration(db, compiled.model, compiled.runtime.dicts, demo.authority.areaCode, filing, new Date(Date.now() - days * 86_400_000));
    for (const [action, opinion] of steps ?? []) await runAction(demo.db, compiled, demo.authority, action, id, { opinion });
  }
  return { declarations: DEMO_DECLARATIONS.length };
}

export const simpleDeclarationFeature: DomainFeature = { name: 'simple-declaration', routes, seed };
