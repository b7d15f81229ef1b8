/**
 * Inspection deadlines: the next periodic inspection date and the next
 * load-test date of a piece of equipment, from its last dates and the interval dictionaries
 * (`data.months` of schemas/dicts/inspection-interval.json and load-test-interval.json).
 *
 * Interval of the periodic inspection, most specific first: a crane lifting molten metal
 * (`4000-molten`), a pressure vessel or piping by safety grade (`2000-g1`, `8000-g3`), the
 * sub-category (`4300` tower crane), the category (`3000` elevator). Without a last inspection,
 * the first inspection is due one interval after the equipment was put into use.
 */
import dayjs from 'dayjs';
import { addToDate } from '../../../shared/dates';
import type { Hook, HookContext } from '../../resources/hooks';
import { dictData } from '../../resources/dicts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `date` plus `months` (a `YYYY-MM-DD` date by addToDate, the same result as dayjs at a twentieth of its cost: bulk loads run this per row). */
const addMonths = (date: unknown, months: number | undefined): string | null => {
  if (typeof date !== 'string' || !date || !months) return null;
  return ISO_DATE.test(date) ? addToDate(date, months, 'm') : dayjs(date).add(months, 'month').format('YYYY-MM-DD');
};

/** The interval codes to try for a row, most specific first. */
function inspectionKeys(row: Record<string, unknown>): string[] {
  const category = String(row.equclacode ?? '');
  const keys: string[] = [];
  if (category === '4000' && row.liftsMoltenMetal === true) keys.push('4000-molten');
  if ((category === '2000' || category === '8000') && row.safetyGrade) keys.push(`${category}-g${String(row.safetyGrade)}`);
  if (row.subCategory) keys.push(String(row.subCategory));
  keys.push(category);
  return keys;
}

export function inspectionMonths(dicts: HookContext['dicts'], row: Record<string, unknown>): number | undefined {
  return dictData<number>(dicts, 'inspection-interval', inspectionKeys(row), 'months');
}

export function loadTestMonths(dicts: HookContext['dicts'], row: Record<string, unknown>): number | undefined {
  return dictData<number>(dicts, 'load-test-interval', [row.subCategory, row.equclacode], 'months');
}

/** The two due dates of an equipment row (null where there is no basis or no interval). */
export function deadlinesOf(dicts: HookContext['dicts'], row: Record<string, unknown>): { nextInspectionDate: string | null; nextLoadTestDate: string | null } {
  return {
    nextInspectionDate: addMonths(row.lastInspectionDate || row.putIntoUseDate, inspectionMonths(dicts, row)),
    nextLoadTestDate: addMonths(row.lastLoadTestDate, loadTestMonths(dicts, row)),
  };
}

/** `derive` hook of the equipment resource. */
export const equipmentDeadlines: Hook = ({ dicts, row }) => deadlinesOf(dicts, row);
