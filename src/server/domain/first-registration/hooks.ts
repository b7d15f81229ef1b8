/**
 * Rules of first registration (schemas/resources/first-regist-apply.json) that its JSON cannot say:
 *
 * - one piece of equipment is identified by its manufacturer and factory number (出厂编号): a
 *   commit is refused when the registry already holds it (in any unit: the registry is one) or
 *   another application of it waits for the authority;
 * - the authority's approval puts the equipment in the registry of the applying unit, 未登记 (use
 *   status 0), ready for use registration — in the approval's transaction (ctx.insert), so an
 *   approval and its equipment are both there or neither is. The application keeps the new
 *   equipment's id.
 */
import { sql } from 'kysely';
import { todayIn } from '../../../shared/dates';
import { AppError } from '../../errors';
import type { Hook, HookContext } from '../../resources/hooks';
import { FIRST_REGISTRATION_ERRORS } from './errors';

export const FIRST_REGISTRATION = 'first-regist-apply';
const EQUIPMENT = 'equipment';

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** Refuses an application whose equipment is already registered or already waits in another application. */
async function assertNotRegistered(ctx: HookContext): Promise<void> {
  const { row, trx } = ctx;
  const manufacturer = text(row.manufacturer);
  const factoryNo = text(row.factoryNo);
  if (!manufacturer || !factoryNo) return;
  const equipment = ctx.resource(EQUIPMENT).table;
  const { rows: registered } = await sql<{ id: string }>`
    SELECT id FROM ${sql.table(equipment)} WHERE trim(manufacturer) = ${manufacturer} AND trim(factory_no) = ${factoryNo} LIMIT 1`.execute(trx);
  if (registered[0]) throw new AppError(FIRST_REGISTRATION_ERRORS.FIRST_REGISTRATION_ALREADY_REGISTERED, undefined, { manufacturer, factoryNo });
  const { rows: pending } = await sql<{ apply_no: string }>`
    SELECT apply_no FROM ${sql.table(ctx.model.table)}
    WHERE trim(manufacturer) = ${manufacturer} AND trim(factory_no) = ${factoryNo} AND status = 'submitted' AND id <> ${row.id} LIMIT 1`.execute(trx);
  if (pending[0]) throw new AppError(FIRST_REGISTRATION_ERRORS.FIRST_REGISTRATION_PENDING, undefined, { applyNo: pending[0].apply_no });
}

/** `effects` of `commit`. */
export const requireNotRegistered: Hook = async (ctx) => {
  await assertNotRegistered(ctx);
};

/** The registry fields an application carries, by the equipment resource's names. */
const EQUIPMENT_FIELDS = [
  'equclacode',
  'subCategory',
  'equipmentName',
  'equipmentModel',
  'equcode',
  'manufacturer',
  'manufactureDate',
  'factoryNo',
  'installer',
  'internalNo',
  'locationArea',
  'address',
] as const;

/** `effects` of `audit-agree`: the equipment enters the applying unit's registry, 未登记. */
export const enterRegistry: Hook = async (ctx) => {
  // Checked again at approval: another unit's application of the same piece may have been approved since.
  await assertNotRegistered(ctx);
  const { row } = ctx;
  const values: Record<string, unknown> = { useStatus: '0' };
  for (const name of EQUIPMENT_FIELDS) if (row[name] !== undefined && row[name] !== null && row[name] !== '') values[name] = row[name];
  const certificates = [row.productCert, row.supervisionCert].flatMap((files): unknown[] => (Array.isArray(files) ? files : []));
  if (certificates.length > 0) values.attachments = certificates.slice(0, 10);
  values.remarks = `首次登记 ${String(row.applyNo ?? '')}；制造许可证编号 ${text(row.manufacturerLicenceNo) || '—'}`;
  const equipment = await ctx.insert(EQUIPMENT, values);
  return { equipment, approveDate: todayIn(), auditOpinion: ctx.opinion ?? null };
};
