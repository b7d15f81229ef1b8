/**
 * Demo records for `npm start` on an empty database and `npm run seed`: the demo using unit's
 * equipment registry (a few hundred rows across the nine types) and applications in every state
 * of their workflows. Everything goes through the resource engine as the demo users (saveRecord /
 * runAction), so server hooks run as they do for people: due dates are derived, approvals issue
 * certificate numbers, approved changes reach the equipment.
 *
 * `bulkEquipment` is the fast path for benchmark volumes (`npm run seed -- --equipment 1000000`):
 * multi-row INSERTs of the same generated rows, derived fields computed by the same hooks.
 */
import { sql } from 'kysely';
import { addToDate, todayIn } from '../../../shared/dates';
import { inTransaction } from '../index';
import { newId } from '../ids';
import { columnsOf, runHooks } from '../../resources/hooks';
import { runAction, saveRecord, type ActionInput, type CompiledResource } from '../../resources/records';
import { insertRow, type AnyDb, type Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { loadConfig } from '../../config';
import { DEMO_UNITS, seedDemoData, userId } from '../seed';
import { demoEquipment, prng } from './equipment';

export interface DemoRecordOptions {
  /** Equipment rows of the demo using unit (default 300). */
  equipment?: number;
  /** PRNG seed (default 20261123). */
  seed?: number;
  /** Hears each step (what is being written), for the terminal. */
  progress?: (message: string) => void;
  /** A transaction to write in (default: a new one on app.db). */
  db?: AnyDb;
}

/** The acting demo user as the engine sees a session of it. */
async function actorOf(db: AnyDb, loginName: string, unit: keyof typeof DEMO_UNITS, roleKey: string): Promise<Actor> {
  const { rows } = await sql<{ name: string; role_type: string; menu_ids: string[] | string }>`
    SELECT u.name, r.role_type, r.menu_ids FROM sys_user u JOIN sys_user_role ur ON ur.user_id = u.id JOIN sys_role r ON r.id = ur.role_id
    WHERE u.id = ${userId(loginName)} ORDER BY (r.role_type = ${roleKey}) DESC LIMIT 1`.execute(db);
  if (!rows[0]) throw new Error(`demo user ${loginName} is missing: seed the demo accounts first`);
  const menuIds = typeof rows[0].menu_ids === 'string' ? (JSON.parse(rows[0].menu_ids) as string[]) : rows[0].menu_ids;
  return { userId: userId(loginName), userName: rows[0].name, unitId: DEMO_UNITS[unit].id, areaCode: DEMO_UNITS[unit].areacode, roleType: rows[0].role_type, menuIds, oversees: loadConfig().oversightRoleTypes.includes(rows[0].role_type) };
}

/** What the seed needs of the app: the database and the compiled resources (a FastifyInstance has both). */
export interface SeedTarget {
  db: unknown;
  resources: ReadonlyMap<string, CompiledResource>;
}

function resource(app: SeedTarget, name: string): CompiledResource {
  const compiled = app.resources.get(name);
  if (!compiled) throw new Error(`resource '${name}' is not loaded`);
  return compiled;
}

const CONTACT = { contactPerson: '张伟', contactMobile: '13805740001' };
const FORM = (name: string) => [{ name, url: '' }];

/** Whether the demo unit already has equipment (the records are seeded once). */
export async function hasDemoRecords(app: SeedTarget): Promise<boolean> {
  const table = resource(app, 'equipment').model.table;
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE unit_id = ${DEMO_UNITS.using.id}`.execute(app.db as AnyDb);
  return rows[0].n > 0;
}

/** The demo accounts (seed.ts) and records, in one transaction: what an empty database gets. */
export function seedDemo(app: SeedTarget, options: Omit<DemoRecordOptions, 'db'> = {}): Promise<Record<string, number>> {
  return inTransaction(app.db as AnyDb, async (trx) => {
    await seedDemoData(trx as never);
    return seedDemoRecords(app, { ...options, db: trx });
  });
}

/**
 * Seeds the demo unit's equipment and applications through the engine, in one transaction (all or
 * nothing, and one commit instead of a thousand); returns counts.
 */
export function seedDemoRecords(app: SeedTarget, options: DemoRecordOptions = {}): Promise<Record<string, number>> {
  return inTransaction(options.db ?? (app.db as AnyDb), (trx) => seedRecordsIn(app, trx, options));
}

async function seedRecordsIn(app: SeedTarget, db: AnyDb, options: DemoRecordOptions): Promise<Record<string, number>> {
  const progress = options.progress ?? (() => undefined);
  const unit = await actorOf(db, 'nbadmin', 'using', 'unit');
  const authority = await actorOf(db, 'jgadmin', 'authority', 'authority');
  const random = prng(options.seed ?? 20261123);
  const today = todayIn();
  const equipmentResource = resource(app, 'equipment');

  const equipment: Row[] = [];
  progress(`写入演示设备 ${options.equipment ?? 300} 台…`);
  for (let index = 0; index < (options.equipment ?? 300); index++) {
    equipment.push(await saveRecord(db, equipmentResource, unit, demoEquipment(random, { today, index })));
  }

  // Inspection history: the last periodic inspection of every inspected piece, and the one before it.
  const history = resource(app, 'inspection-record');
  progress('写入检验记录、现场检查…');
  let inspections = 0;
  for (const e of equipment) {
    if (!e.lastInspectionDate) continue;
    const months = Math.round((Date.parse(String(e.nextInspectionDate ?? e.lastInspectionDate)) - Date.parse(String(e.lastInspectionDate))) / (30.44 * 86_400_000)) || 12;
    const earlier = addToDate(String(e.lastInspectionDate), -months, 'm');
    for (const [date, conclusion, next] of [
      [e.lastInspectionDate, e.lastConclusion, e.nextInspectionDate],
      [earlier, '1', e.lastInspectionDate],
    ] as const) {
      if (String(date) < String(e.putIntoUseDate ?? '')) continue;
      inspections++;
      await insertRow(db, history.model, {
        ...columnsOf(history.model, {
          equipment: e.id,
          equcode: e.equcode,
          equipmentName: e.equipmentName,
          equclacode: e.equclacode,
          registrationCode: e.registrationCode,
          inspectionType: 'periodic',
          inspectionDate: date,
          conclusion: conclusion ?? '1',
          inspectionBody: e.inspectionBody ?? '宁波市特种设备检验研究院',
          reportNo: `NBTJ-${String(date).slice(0, 4)}-${String(inspections).padStart(6, '0')}`,
          nextInspectionDate: next,
        }),
        id: newId(),
        unit_id: unit.unitId,
        area_code: unit.areaCode,
        created_by: unit.userId,
        updated_by: unit.userId,
      });
    }
  }

  // On-site checks of a few pieces in use: one fine, one to rectify.
  const checks = resource(app, 'self-check');
  const checked = equipment.filter((e) => e.useStatus === '1').slice(0, 4);
  for (const [i, e] of checked.entries()) {
    const issue = i % 2 === 1;
    await saveRecord(db, checks, unit, {
      equipment: e.id,
      equcode: e.equcode,
      equipmentName: e.equipmentName,
      equclacode: e.equclacode,
      address: e.address,
      checkDate: addToDate(today, -7 * (i + 1), 'd'),
      checker: '王建国',
      conclusion: issue ? 'rectify' : 'pass',
      problems: issue ? '安全保护装置动作不可靠，维保记录不完整' : null,
      rectification: issue ? '联系维保单位检修并补齐维保记录' : null,
      rectifyDeadline: issue ? addToDate(today, 14, 'd') : null,
      items: [
        { checkItem: 'cert', result: 'ok' },
        { checkItem: 'inspection', result: 'ok' },
        { checkItem: 'safety-device', result: issue ? 'issue' : 'ok', remark: issue ? '限位开关动作不可靠' : null },
        { checkItem: 'maintenance', result: issue ? 'issue' : 'ok', remark: issue ? '缺少10月维保记录' : null },
      ],
    });
  }

  progress('写入使用登记、变更登记、在线报检申请（各状态）…');
  // Use registration: equipment not yet registered (未登记) is what units apply for.
  const registry = resource(app, 'use-regist-apply');
  const unregistered = equipment.filter((e) => e.useStatus === '0');
  // Every state first, then more of the common ones while unregistered equipment lasts.
  const registrations = ['approved', 'accepted', 'submitted', 'returned', 'draft', 'cancelled', 'approved', 'submitted', 'draft'] as const;
  let made = 0;
  for (const [i, target] of registrations.entries()) {
    const item = unregistered[i];
    if (!item) break;
    const application = await saveRecord(db, registry, unit, {
      registMode: 'regBySets',
      useUnitName: DEMO_UNITS.using.orgname,
      useUnitCreditCode: DEMO_UNITS.using.orgcode,
      useUnitAddress: DEMO_UNITS.using.address,
      equclacode: item.equclacode,
      locationArea: item.locationArea,
      ...CONTACT,
      useStartDate: today,
      reason: `${String(item.equipmentName)}投入使用，申请办理使用登记`,
      applyForm: FORM('特种设备使用登记表.pdf'),
      items: [{ equipment: item.id, equcode: item.equcode, equipmentName: item.equipmentName, equclacode: item.equclacode, subCategory: item.subCategory, factoryNo: item.factoryNo, address: item.address }],
      isCommit: target !== 'draft' && target !== 'cancelled',
    });
    const id = application.id as string;
    if (target === 'accepted' || target === 'approved') await runAction(db, registry, authority, 'accept', id, { opinion: '材料齐全，予以受理' });
    if (target === 'approved') await runAction(db, registry, authority, 'audit-agree', id, { opinion: '符合使用登记条件，准予登记' });
    if (target === 'returned') await runAction(db, registry, authority, 'audit-disagree', id, { opinion: '使用登记表未加盖单位公章，请补正后重新提交' });
    if (target === 'cancelled') await runAction(db, registry, unit, 'cancel', id, {});
    made++;
  }

  // Change applications: a stop approved, a scrap waiting, a change of address returned.
  const changes = resource(app, 'use-change-apply');
  const inUse = equipment.filter((e) => e.useStatus === '1');
  const changePlans = [
    { changeType: 'stop', target: 'approved', reason: '车间停产改造，设备暂停使用' },
    { changeType: 'scrap', target: 'submitted', reason: '设备达到设计使用年限，申请报废' },
    { changeType: 'address', target: 'returned', reason: '设备迁移至新厂区', newLocationArea: '330206', newAddress: '宁波市北仑区明州路88号新厂区' },
  ];
  let changed = 0;
  for (const [i, plan] of changePlans.entries()) {
    const item = inUse[i];
    if (!item) break;
    const { target, ...fields } = plan;
    const application = await saveRecord(db, changes, unit, {
      ...fields,
      useUnitName: DEMO_UNITS.using.orgname,
      effectiveDate: today,
      ...CONTACT,
      applyForm: FORM('特种设备变更登记表.pdf'),
      items: [{ equipment: item.id, equcode: item.equcode, equipmentName: item.equipmentName, equclacode: item.equclacode, registrationCode: item.registrationCode, useCertNo: item.useCertNo }],
      isCommit: true,
    });
    const id = application.id as string;
    if (target === 'approved') {
      await runAction(db, changes, authority, 'accept', id, {});
      await runAction(db, changes, authority, 'audit-agree', id, { opinion: '同意停用' });
    }
    if (target === 'returned') await runAction(db, changes, authority, 'audit-disagree', id, { opinion: '请补充新使用地点的安全管理人员信息' });
    changed++;
  }
  // Online inspection applications in every state of their workflow.
  const online = resource(app, 'online-apply');
  const due = equipment.filter((e) => e.useStatus === '1' && e.registrationCode).slice(10, 26);
  const onlinePlans = ['draft', 'submitted', 'accepted', 'unpaid', 'paid', 'inspected', 'revoked', 'returned'] as const;
  let applied = 0;
  for (const [i, target] of onlinePlans.entries()) {
    const pair = due.slice(i * 2, i * 2 + 2);
    if (pair.length === 0) break;
    const application = await saveRecord(db, online, unit, {
      applicant: DEMO_UNITS.using.orgname,
      ...CONTACT,
      expectedDate: addToDate(today, 14, 'd'),
      inspectionAddress: String(pair[0].address),
      reliefPolicy: i % 3 === 0 ? 'small-micro' : null,
      items: pair.map((e) => ({ equipment: e.id })),
      isCommit: target !== 'draft',
    });
    const id = application.id as string;
    const steps: [Actor, string, ActionInput][] = [];
    if (target === 'revoked') steps.push([unit, 'revoke', {}]);
    if (target === 'returned') steps.push([authority, 'audit-disagree', { opinion: '设备清单与报检地点不一致，请核对后重新提交' }]);
    if (['accepted', 'unpaid', 'paid', 'inspected'].includes(target)) steps.push([authority, 'accept', { opinion: '予以受理' }]);
    if (['unpaid', 'paid', 'inspected'].includes(target)) steps.push([authority, 'bill', {}]);
    if (target === 'paid' || target === 'inspected') {
      steps.push([unit, 'update-pay-cert', { extra: { payCertificate: FORM('银行转账回单.pdf') } }]);
      steps.push([authority, 'confirm-payment', {}]);
    }
    if (target === 'inspected') {
      steps.push([authority, 'inspect', { opinion: '检验合格', extra: { conclusion: '1', inspectionDate: addToDate(today, -3, 'd'), inspectionBody: '宁波市特种设备检验研究院', report: FORM('定期检验报告.pdf') } }]);
    }
    for (const [actor, action, input] of steps) await runAction(db, online, actor, action, id, input);
    applied++;
  }

  return { equipment: equipment.length, onlineApplications: applied, inspections, selfChecks: checked.length, useRegistrations: made, changeApplications: changed };
}

/**
 * Inserts `count` generated equipment rows for the demo unit in multi-row INSERTs of `batch`
 * rows (derived fields computed by the resource's derive hooks); `onProgress` after each batch.
 */
export async function bulkEquipment(app: SeedTarget, count: number, options: { seed?: number; batch?: number; onProgress?: (done: number) => void } = {}): Promise<void> {
  const db = app.db as AnyDb;
  const compiled = resource(app, 'equipment');
  const { model } = compiled;
  const actor = await actorOf(db, 'nbadmin', 'using', 'unit');
  const random = prng(options.seed ?? 1);
  const today = todayIn();
  // PostgreSQL takes at most 65,535 bind parameters per statement.
  const batch = Math.min(options.batch ?? 2000, Math.floor(60_000 / model.columns.length));
  const { rows: existing } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(model.table)}`.execute(db);
  const offset = existing[0].n;
  const jsonColumns = new Set(model.fields.filter((f) => f.kind === 'json').map((f) => f.column));
  for (let done = 0; done < count; ) {
    const size = Math.min(batch, count - done);
    const values: Record<string, unknown>[] = [];
    for (let i = 0; i < size; i++) {
      const body = demoEquipment(random, { today, index: offset + done + i });
      const derived = await runHooks(compiled.runtime, model.derive, { trx: db, actor, model, row: body, before: undefined, action: 'save', input: body });
      const columns = columnsOf(model, { ...body, ...derived });
      values.push({ ...columns, id: newId(), unit_id: actor.unitId, area_code: actor.areaCode, created_by: actor.userId, updated_by: actor.userId });
    }
    const names = [...new Set(values.flatMap((v) => Object.keys(v)))];
    const tuples = values.map((v) => sql`(${sql.join(names.map((n) => (v[n] === undefined || v[n] === null ? null : jsonColumns.has(n) ? JSON.stringify(v[n]) : v[n])))})`);
    await sql`INSERT INTO ${sql.table(model.table)} (${sql.join(names.map((n) => sql.ref(n)))}) VALUES ${sql.join(tuples)}`.execute(db);
    done += size;
    options.onProgress?.(done);
  }
}
