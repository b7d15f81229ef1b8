/**
 * Demo records of the equipment registry: a few hundred pieces across the nine types (demo-rows.ts),
 * their inspection history and a few on-site checks. `bulkEquipment` is the fast path for benchmark
 * volumes (`npm run seed -- --equipment 1000000`): the same generated rows, prepared (derive hooks,
 * owner, audit columns) by the same insert as every other record, written by COPY (resources/bulk.ts).
 */
import { sql } from 'kysely';
import { addToDate, todayIn } from '../../../shared/dates';
import { demoActor, prng, resourceOf, type DemoContext, type SeedTarget } from '../../db/demo/context';
import type { Actor } from '../../resources/scope';
import { saveRecord } from '../../resources/record-save';
import type { AnyDb, Row } from '../../resources/repository';
import { bulkInsertRecords, type BulkOptions } from '../../resources/bulk';
import { insertRecord } from '../../resources/writer';
import { cityUnitProfile, cityUnits, insertCityUnits, relocate, unitPicker } from './bulk-city';
import { demoEquipment } from './demo-rows';
import { MAINTENANCE_UNIT, maintenanceUnitFor, seedMaintenanceUnits } from './maintenance-units';

export const EQUIPMENT = 'equipment';

/** Demo rows of the second using unit's equipment (demo.rows), apart from the first unit's so later seeds do not mix them. */
export const SECOND_UNIT_EQUIPMENT = 'equipment:second';

/** The equipment fields a record about a piece carries (its reference and the copies shown in lists), from the saved equipment row. */
export function equipmentFieldsOf(e: Row): Record<string, unknown> {
  return { equipment: e.id, equcode: e.equcode, equipmentName: e.equipmentName, equclacode: e.equclacode, registrationCode: e.registrationCode };
}

export async function seedEquipment(demo: DemoContext): Promise<Record<string, number>> {
  // The maintenance units first: the equipment picks them.
  demo.progress('写入维保单位…');
  demo.rows.set(MAINTENANCE_UNIT, await seedMaintenanceUnits(demo));
  const first = await seedUnitEquipment(demo, demo.unit, demo.options.equipment ?? 300, 0);
  demo.rows.set(EQUIPMENT, first.equipment);
  // The second unit's codes continue the sequence, so codes and registration numbers stay unique.
  const second = await seedUnitEquipment(demo, demo.secondUnit, demo.options.secondEquipment ?? 50, first.equipment.length);
  demo.rows.set(SECOND_UNIT_EQUIPMENT, second.equipment);
  return {
    maintenanceUnits: demo.rows.get(MAINTENANCE_UNIT)!.length,
    equipment: first.equipment.length + second.equipment.length,
    inspections: first.inspections + second.inspections,
    selfChecks: first.selfChecks + second.selfChecks,
  };
}

/** `count` pieces of one unit's equipment, their inspection history and a few on-site checks. */
async function seedUnitEquipment(
  demo: DemoContext,
  unit: Actor,
  count: number,
  offset: number,
): Promise<{ equipment: Row[]; inspections: number; selfChecks: number }> {
  const { db, today, random } = demo;
  const equipmentResource = demo.resource(EQUIPMENT);
  const equipment: Row[] = [];
  const maintenanceUnits = demo.rows.get(MAINTENANCE_UNIT) ?? [];
  demo.progress(`写入演示设备 ${count} 台（${unit.userName}）…`);
  for (let index = 0; index < count; index++) {
    const body = demoEquipment(random, { today, index: offset + index });
    // Linked to its maintenance unit by the reference; the server copies the unit's name beside it.
    const maintainer = maintenanceUnitFor(maintenanceUnits, body);
    if (maintainer) Object.assign(body, { maintenanceUnitId: maintainer.id, maintenanceUnit: undefined });
    equipment.push(await saveRecord(db, equipmentResource, unit, body));
  }

  // Inspection history: the last periodic inspection of every inspected piece, and the one before it.
  const history = demo.resource('inspection-record');
  demo.progress('写入检验记录、现场检查…');
  let inspections = 0;
  for (const e of equipment) {
    if (!e.lastInspectionDate) continue;
    const months =
      Math.round((Date.parse(String(e.nextInspectionDate ?? e.lastInspectionDate)) - Date.parse(String(e.lastInspectionDate))) / (30.44 * 86_400_000)) || 12;
    const earlier = addToDate(String(e.lastInspectionDate), -months, 'm');
    for (const [date, conclusion, next] of [
      [e.lastInspectionDate, e.lastConclusion, e.nextInspectionDate],
      [earlier, '1', e.lastInspectionDate],
    ] as const) {
      if (String(date) < String(e.putIntoUseDate ?? '')) continue;
      inspections++;
      await insertRecord(
        db,
        history,
        unit,
        {
          ...equipmentFieldsOf(e),
          inspectionType: 'periodic',
          inspectionDate: date,
          conclusion: conclusion ?? '1',
          inspectionBody: e.inspectionBody ?? '宁波市特种设备检验研究院',
          reportNo: `NBTJ-${String(date).slice(0, 4)}-${String(inspections).padStart(6, '0')}`,
          nextInspectionDate: next,
        },
        { trusted: true },
      );
    }
  }

  // On-site checks of a few pieces in use: one fine, one to rectify.
  const checks = demo.resource('self-check');
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
  return { equipment, inspections, selfChecks: checked.length };
}

/**
 * Inserts `count` generated equipment rows for the demo unit, each prepared by the same insert as
 * every other record, in one COPY stream (`method: 'insert'`: the former multi-row INSERTs, the
 * baseline of `npm run bench:seed`); `onProgress` every 10,000 rows. Returns the number of rows.
 *
 * `units`: a generated city instead (bulk-city.ts): that many using units with their profiles, and
 * the rows spread over them (each row's owner and district its unit's). The rows still go through
 * one COPY stream: the insert options' `owner` is set to the next row's unit as its body is drawn,
 * and the bulk insert prepares each body as soon as it is drawn (resources/bulk.ts).
 */
export async function bulkEquipment(
  app: SeedTarget,
  count: number,
  options: { seed?: number; units?: number; method?: BulkOptions['method']; onProgress?: (done: number) => void; onUnits?: (added: number) => void } = {},
): Promise<number> {
  const db = app.db as AnyDb;
  const compiled = resourceOf(app, EQUIPMENT);
  const actor = await demoActor(db, 'nbadmin', 'using', 'unit');
  const random = prng(options.seed ?? 1);
  const today = todayIn();
  const { rows: existing } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(compiled.model.table)}`.execute(db);
  const offset = existing[0].n;
  // A load at least as large as the table builds its indexes once at the end (BulkOptions.deferIndexes).
  const deferIndexes = options.method !== 'insert' && count >= offset;
  if (options.units === undefined) {
    function* bodies() {
      for (let i = 0; i < count; i++) yield demoEquipment(random, { today, index: offset + i });
    }
    return bulkInsertRecords(db, compiled, actor, bodies(), { trusted: true, method: options.method, deferIndexes, onProgress: options.onProgress });
  }
  const units = cityUnits(options.units, options.seed ?? 1);
  const added = await insertCityUnits(db, units);
  // Each new unit's profile (the 辖区单位 view reads its legal person, industry, staff), owned by the unit.
  const profileOwner = { unitId: '', areaCode: '' };
  function* profiles() {
    const profileRandom = prng((options.seed ?? 1) + 1);
    for (const u of units) {
      if (!added.has(u.id)) continue;
      Object.assign(profileOwner, { unitId: u.id, areaCode: u.areacode });
      yield cityUnitProfile(u, profileRandom);
    }
  }
  await bulkInsertRecords(db, resourceOf(app, 'unit-profile'), actor, profiles(), { trusted: true, method: options.method, owner: profileOwner });
  options.onUnits?.(added.size);
  const owner = { unitId: '', areaCode: '' };
  const pickUnit = unitPicker(units, random);
  function* spread() {
    for (let i = 0; i < count; i++) {
      const unit = pickUnit();
      Object.assign(owner, { unitId: unit.id, areaCode: unit.areacode });
      yield relocate(demoEquipment(random, { today, index: offset + i }), unit);
    }
  }
  return bulkInsertRecords(db, compiled, actor, spread(), { trusted: true, method: options.method, deferIndexes, owner, onProgress: options.onProgress });
}
