/**
 * Server hooks of maintenance contracts and records (schemas/resources/maintenance-contract.json,
 * maintenance-record.json) — the rules their JSON cannot say:
 *
 * - `maintenance-contract-commit` (effect of commit): the chosen maintenance unit is on the
 *   platform (its registry row is linked to an account, so someone can confirm), its licence is
 *   valid, and the contract has not already ended;
 * - `maintenance-contract-confirmed` (effect of confirm): each piece of the contract names the
 *   maintenance unit in the equipment register; then keeps the opinion as below;
 * - `maintenance-contract-opinion` (effect of return, terminate): keeps the latest opinion
 *   on the contract (the flow log has them all);
 * - `maintenance-record-check` (derive of maintenance-record, on every save): a record filed
 *   under a contract names an active contract of the record's unit, covering the piece and the
 *   maintenance date; the maintenance unit (taken from the contract) held a valid licence on the
 *   maintenance date and holds one today; an elevator's next visit is at most
 *   PORTAL_ELEVATOR_MAINTENANCE_DAYS after this one (TSG T5002);
 * - `maintenance-record-delete` (onDelete) and the derive above: a record a maintenance unit filed
 *   is edited and deleted by it only, never by the unit it belongs to;
 * - `maintenance-record-register` (effect of register): the unit registers only the records it
 *   typed itself; a maintenance unit's record is committed by it and then confirmed.
 */
import { sql } from 'kysely';
import { addToDate, todayIn } from '../../../shared/dates';
import { loadConfig } from '../../config';
import { AppError } from '../../errors';
import type { Hook, HookContext } from '../../resources/hooks';
import { quote } from '../../resources/naming';
import type { Row } from '../../resources/repository';

export const MAINTENANCE_CONTRACT = 'maintenance-contract';
export const MAINTENANCE_CONTRACT_ITEM = 'maintenance-contract-item';
const MAINTENANCE_UNIT = 'maintenance-unit';
const EQUIPMENT = 'equipment';
/** The role type of maintenance units (the party of contracts and records). */
const MAINTENANCE_ROLE_TYPE = 'maintenance';
/** Elevators: equipment category 3000 (equipment-category dictionary). */
const ELEVATOR_CATEGORY = /^3/;

const dateText = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 10) : value instanceof Date ? value.toISOString().slice(0, 10) : '');
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The equipment ids a contract row lists (its sub-table). */
const piecesOf = (contract: Row): string[] =>
  (Array.isArray(contract.equipments) ? (contract.equipments as Row[]) : []).map((i) => text(i.equipment)).filter(Boolean);

const refused = (message: string, field: string) => new AppError('VALIDATION_FAILED', message, { field });

/** The registry row of a maintenance unit, or undefined. */
async function licenceOf(ctx: HookContext, id: unknown): Promise<Row | undefined> {
  return typeof id === 'string' && id ? ctx.find(MAINTENANCE_UNIT, id) : undefined;
}

/** Refuses a maintenance unit whose licence expired before `date` (or today, whichever is earlier). */
function assertLicence(unit: Row, dates: readonly string[], field: string): void {
  const expiry = dateText(unit.expiryDate);
  const name = text(unit.unitName) || '所选维保单位';
  for (const date of dates) if (expiry && date && expiry < date) throw refused(`${name}的维保许可证已于${expiry}过期，不能承担维保工作，请更换维保单位`, field);
}

/** effect of commit on maintenance-contract. */
export const maintenanceContractCommit: Hook = async (ctx) => {
  const { row } = ctx;
  const today = todayIn();
  const unit = await licenceOf(ctx, row.maintenanceUnitId);
  if (!unit) throw refused('维保单位不存在，请重新选择', 'maintenanceUnitId');
  if (!text(unit.accountUnitId) || !text(row.maintenanceAccountId))
    throw refused(`${text(unit.unitName)}尚未在本平台注册，无法在线确认合同；请联系该单位注册后再提交`, 'maintenanceUnitId');
  assertLicence(unit, [today], 'maintenanceUnitId');
  const end = dateText(row.endDate);
  if (end && end < today) throw refused(`合同截止日期${end}已过，请修改合同期限后再提交`, 'endDate');
  const taken = await coveredElsewhere(ctx);
  if (taken) throw refused(`设备${taken.name}已在维保合同${taken.contractNo}（待确认或生效中）中，请先终止原合同或从清单中移除该设备`, 'equipments');
};

/** A piece of the contract's list that another of the unit's contracts, submitted or active, also lists. */
async function coveredElsewhere(ctx: HookContext): Promise<{ name: string; contractNo: string } | undefined> {
  const pieces = piecesOf(ctx.row);
  if (pieces.length === 0) return undefined;
  const contract = ctx.resource(MAINTENANCE_CONTRACT);
  const item = ctx.resource(MAINTENANCE_CONTRACT_ITEM);
  const col = (model: typeof contract, name: string) => sql.ref(model.byName.get(name)!.column);
  const { rows } = await sql<{ name: string | null; no: string | null }>`
    SELECT i.${col(item, 'equipmentName')} AS name, c.${col(contract, 'contractNo')} AS no
    FROM ${sql.table(item.table)} i JOIN ${sql.table(contract.table)} c ON c.id = i.parent_id
    WHERE c.unit_id = ${text(ctx.row.unitId)} AND c.id <> ${text(ctx.row.id)} AND c.status IN ('submitted', 'active')
      AND i.${col(item, 'equipment')} IN (${sql.join(pieces)})
    LIMIT 1`.execute(ctx.trx);
  return rows[0] ? { name: rows[0].name ?? '', contractNo: rows[0].no ?? '' } : undefined;
}

/** effect of confirm, return and terminate on maintenance-contract. */
export const maintenanceContractOpinion: Hook = (ctx) => ({ opinion: ctx.opinion?.trim() || null });

/**
 * effect of confirm on maintenance-contract: the contract's equipment names its maintenance unit in
 * the register too (维保单位 and 维护保养单位 of each piece), as the unit would have typed it.
 */
export const maintenanceContractConfirmed: Hook = async (ctx) => {
  const pieces = piecesOf(ctx.row);
  for (const id of pieces) await ctx.update(EQUIPMENT, id, { maintenanceUnitId: ctx.row.maintenanceUnitId, maintenanceUnit: ctx.row.maintenanceUnit });
  return maintenanceContractOpinion(ctx);
};

/** Whether the contract lists the piece of equipment. */
async function contractCovers(ctx: HookContext, contractId: string, equipmentId: string): Promise<boolean> {
  const item = ctx.resource(MAINTENANCE_CONTRACT_ITEM);
  const ref = item.byName.get('equipment')!.column;
  const { rows } = await sql<{ n: number }>`SELECT 1 AS n FROM ${sql.raw(quote(item.table))} WHERE parent_id = ${contractId} AND ${sql.raw(
    quote(ref),
  )} = ${equipmentId} LIMIT 1`.execute(ctx.trx);
  return rows.length > 0;
}

/** A record a maintenance unit filed is its to edit or delete until committed; the unit confirms or returns it. */
function assertFiler(ctx: HookContext, stored: Row | undefined): void {
  if (ctx.actor.roleType !== MAINTENANCE_ROLE_TYPE && text(stored?.maintenanceAccountId))
    throw new AppError('VALIDATION_FAILED', '该记录由维保单位在线填报，只能由其修改或删除；提交后请进行确认或退回', { field: 'equipment' });
}

/** onDelete of maintenance-record. */
export const maintenanceRecordDelete: Hook = (ctx) => assertFiler(ctx, ctx.row);

/** derive of maintenance-record. */
export const maintenanceRecordCheck: Hook = async (ctx) => {
  const { row } = ctx;
  assertFiler(ctx, ctx.before);
  const today = todayIn();
  const date = dateText(row.maintenanceDate);
  const values: Record<string, unknown> = {};
  let unitId = row.maintenanceUnitId;
  const contractId = text(row.contract);
  if (contractId) {
    const contract = await ctx.find(MAINTENANCE_CONTRACT, contractId);
    // A maintenance unit files under the contracts naming it (the engine makes the record the contract's unit's: party via);
    // the unit, under its own contracts.
    const mine =
      ctx.actor.roleType === MAINTENANCE_ROLE_TYPE
        ? contract?.maintenanceAccountId === ctx.actor.unitId
        : contract?.unitId === (text(row.unitId) || ctx.actor.unitId);
    if (!contract || !mine) throw refused('所选维保合同不存在或不属于本单位', 'contract');
    if (contract.status !== 'active') throw refused(`维保合同${text(contract.contractNo)}未生效（待确认、已退回或已终止），不能按其填报维保记录`, 'contract');
    const start = dateText(contract.startDate);
    const end = dateText(contract.endDate);
    if (end && end < today) throw refused(`维保合同${text(contract.contractNo)}已于${end}到期，请续签合同后再填报`, 'contract');
    if (date && ((start && date < start) || (end && date > end))) throw refused(`维保日期须在合同期限（${start}至${end}）之内`, 'maintenanceDate');
    if (typeof row.equipment === 'string' && !(await contractCovers(ctx, contractId, row.equipment)))
      throw refused(`该设备不在维保合同${text(contract.contractNo)}的设备清单中`, 'equipment');
    unitId = contract.maintenanceUnitId;
    values.maintenanceUnitId = contract.maintenanceUnitId ?? null;
    values.maintenanceUnit = contract.maintenanceUnit ?? null;
  }
  const unit = await licenceOf(ctx, unitId);
  if (unit) assertLicence(unit, [date, today], contractId ? 'contract' : 'maintenanceUnitId');
  const category = text(row.equclacode);
  const next = dateText(row.nextMaintenanceDate);
  if (ELEVATOR_CATEGORY.test(category) && date && next) {
    const days = loadConfig().elevatorMaintenanceDays;
    const latest = addToDate(date, days, 'd');
    if (next > latest) throw refused(`电梯维保间隔不得超过${days}天（TSG T5002），下次维保日期最迟为${latest}`, 'nextMaintenanceDate');
  }
  return values;
};

/** effect of register on maintenance-record. */
export const maintenanceRecordRegister: Hook = (ctx) => {
  if (text(ctx.row.maintenanceAccountId)) throw new AppError('VALIDATION_FAILED', '该记录由维保单位在线填报，请待其提交后进行确认', { field: 'unitConfirmer' });
};
