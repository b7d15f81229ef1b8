/**
 * Effects of the use-registration workflow:
 *
 * - approval issues the certificate: its number follows the convention
 *   `<类别简称><2-digit sub-code><省简称><city letter><5-digit sequence>(<2-digit year>)`, e.g.
 *   `梯31浙B00012(26)` — the short name is `data.abbr` of the category (equipment-category), the
 *   sub-code the first two digits of the sub-category, the region `data.short` of the province and
 *   `data.letter` of the city (area), the sequence counts per prefix and year;
 * - every piece of equipment of the application takes the number and goes 在用 (use status 1),
 *   dated from the application's start of use when it had none;
 * - an approved change application applies to its equipment: stop → 停用, restart → 在用,
 *   cancel → 注销, scrap → 报废, address → the new area and address, unit → the equipment and its
 *   use registration move to the receiving unit once it accepted (transfer.ts).
 */
import dayjs from 'dayjs';
import { todayIn } from '../../../shared/dates';
import { AppError } from '../../errors';
import { nextSequence, type Hook, type HookContext } from '../../resources/hooks';
import { dictData, dictPath } from '../../resources/dicts';
import { REGISTRATION_ERRORS } from './errors';
import { transferEquipment } from './transfer';

type Item = { equipment?: string; equclacode?: string; subCategory?: string };

const itemsOf = (row: Record<string, unknown>): Item[] => (Array.isArray(row.items) ? (row.items as Item[]) : []);

/** Province short name and city letter of an area code (`330212` → 浙B), from the area dictionary. */
function regionOf(dicts: HookContext['dicts'], area: string): string {
  const path = dictPath(dicts, 'area', area);
  const short = path.map((item) => item.data?.short).find((v) => v !== undefined);
  const letter = path.map((item) => item.data?.letter).find((v) => v !== undefined);
  if (short === undefined || letter === undefined)
    throw new AppError(REGISTRATION_ERRORS.CERT_AREA_NOT_CONFIGURED, `区域 ${area} 未配置登记证编号的省市简称`, { area });
  return `${String(short)}${String(letter)}`;
}

/** The next certificate number for equipment of `item`'s category in `area`, issued on `date`. */
export async function certificateNumber(ctx: HookContext, item: Item, area: string, date: dayjs.Dayjs): Promise<string> {
  const abbr = dictData<string>(ctx.dicts, 'equipment-category', [item.equclacode], 'abbr');
  if (!abbr) throw new AppError(REGISTRATION_ERRORS.CERT_CATEGORY_NOT_CONFIGURED);
  const subCode = String(item.subCategory ?? item.equclacode ?? '')
    .slice(0, 2)
    .padEnd(2, '0');
  const prefix = `${abbr}${subCode}${regionOf(ctx.dicts, area)}`;
  const year = date.format('YY');
  const sequence = await nextSequence(ctx.trx, `use-cert:${prefix}:${year}`);
  return `${prefix}${String(sequence).padStart(5, '0')}(${year})`;
}

/** Category of an item: its own snapshot, else the referenced equipment's. */
async function withCategory(ctx: HookContext, item: Item): Promise<Item> {
  if (item.equclacode || !item.equipment) return item;
  const equipment = await ctx.find('equipment', item.equipment);
  return { ...item, equclacode: equipment?.equclacode as string | undefined, subCategory: equipment?.subCategory as string | undefined };
}

/** `effects` of use-regist-apply `audit-agree`. */
export const issueUseCertificate: Hook = async (ctx) => {
  const { row } = ctx;
  const items = itemsOf(row);
  if (items.length === 0) throw new AppError(REGISTRATION_ERRORS.REGISTRATION_WITHOUT_EQUIPMENT);
  const today = dayjs(todayIn());
  const area = String(row.locationArea || row.areaCode || '');
  const certNo = await certificateNumber(ctx, await withCategory(ctx, items[0]), area, today);
  for (const item of items) {
    if (!item.equipment) continue;
    const equipment = await ctx.find('equipment', item.equipment, true);
    if (!equipment) continue;
    await ctx.update('equipment', item.equipment, {
      useCertNo: certNo,
      useStatus: '1',
      ...(equipment.putIntoUseDate ? {} : { putIntoUseDate: row.useStartDate ?? today.format('YYYY-MM-DD') }),
    });
  }
  return { certNo, issueDate: today.format('YYYY-MM-DD'), auditOpinion: ctx.opinion ?? null };
};

const STATUS_BY_CHANGE: Record<string, string> = { stop: '2', restart: '1', cancel: '3', scrap: '4' };

/** `effects` of use-change-apply `audit-agree`. */
export const applyUseChange: Hook = async (ctx) => {
  const { row } = ctx;
  const change = String(row.changeType ?? '');
  if (change === 'unit') await transferEquipment(ctx);
  for (const item of itemsOf(row)) {
    if (!item.equipment) continue;
    const values: Record<string, unknown> = {};
    if (STATUS_BY_CHANGE[change]) values.useStatus = STATUS_BY_CHANGE[change];
    if (change === 'address') {
      if (row.newLocationArea) values.locationArea = row.newLocationArea;
      if (row.newAddress) values.address = row.newAddress;
    }
    if (Object.keys(values).length > 0 && (await ctx.find('equipment', item.equipment, true))) await ctx.update('equipment', item.equipment, values);
  }
  return { auditOpinion: ctx.opinion ?? null };
};
