/**
 * Periodic-inspection fees (a fee table per category in a dictionary,
 * convention). ONE function prices a set of equipment under a relief policy; the online inspection
 * application's save hook (derive), the authority's billing and the getChargeInspectionFee
 * endpoint all call it, so what the unit is shown is what it is billed.
 *
 * - the fee of one piece of equipment is `data.fee` (yuan) of its sub-category in the
 *   `inspection-fee` dictionary, else of its category; a category without a fee cannot be applied for;
 * - a relief policy (`relief-policy`) takes `data.percent` % or `data.amount` yuan off the total,
 *   never below zero;
 * - amounts are computed in fen (integers) and returned in yuan (two decimals).
 */
import { AppError } from '../../errors';
import { dictData, dictPath } from '../../resources/dicts';
import type { HookContext } from '../../resources/hooks';
import { INSPECTION_ERRORS } from './errors';

export type Dicts = HookContext['dicts'];

/** What prices a piece of equipment: its category and sub-category codes. */
export interface FeeSubject {
  equclacode?: unknown;
  subCategory?: unknown;
}

export interface FeeLine {
  equclacode: string;
  subCategory: string | null;
  /** Yuan. */
  fee: number;
}

export interface FeeQuote {
  items: FeeLine[];
  /** Sum of the item fees, yuan. */
  feeAmount: number;
  reliefPolicy: string | null;
  reliefAmount: number;
  payableAmount: number;
}

export interface ReliefPolicy {
  code: string;
  label: string;
  /** Share taken off, 0–100. */
  percent?: number;
  /** Yuan taken off. */
  amount?: number;
  note?: string;
}

const FEE_DICT = 'inspection-fee';
const RELIEF_DICT = 'relief-policy';
const CATEGORY_DICT = 'equipment-category';

const toFen = (yuan: number): number => Math.round(yuan * 100);
const toYuan = (fen: number): number => fen / 100;
const code = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The fee of one piece of equipment in fen: its sub-category's, else its category's. */
function itemFeeFen(dicts: Dicts, subject: FeeSubject): { equclacode: string; subCategory: string | null; fen: number } {
  const equclacode = code(subject.equclacode);
  const subCategory = code(subject.subCategory);
  const category = equclacode ? dictPath(dicts, CATEGORY_DICT, equclacode) : [];
  if (!equclacode || category.length !== 1) throw new AppError(INSPECTION_ERRORS.FEE_CATEGORY_INVALID);
  if (subCategory && dictPath(dicts, CATEGORY_DICT, subCategory)[0]?.value !== equclacode) throw new AppError(INSPECTION_ERRORS.FEE_SUBCATEGORY_MISMATCH);
  const fee = dictData<number>(dicts, FEE_DICT, [subCategory, equclacode], 'fee');
  if (typeof fee !== 'number' || !Number.isFinite(fee) || fee < 0) throw new AppError(INSPECTION_ERRORS.FEE_NOT_CONFIGURED);
  return { equclacode, subCategory, fen: toFen(fee) };
}

/** The relief policies offered (disabled items are kept for old rows only). */
export function reliefPolicies(dicts: Dicts): ReliefPolicy[] {
  return (dicts.get(RELIEF_DICT) ?? [])
    .filter((item) => !item.disabled)
    .map((item) => ({
      code: item.value,
      label: item.label,
      ...(typeof item.data?.percent === 'number' ? { percent: item.data.percent } : {}),
      ...(typeof item.data?.amount === 'number' ? { amount: item.data.amount } : {}),
      ...(typeof item.data?.note === 'string' ? { note: item.data.note } : {}),
    }));
}

/** Relief in fen of `policy` on a total of `totalFen`. */
function reliefFen(dicts: Dicts, policy: string | null, totalFen: number): number {
  if (!policy) return 0;
  const item = dictPath(dicts, RELIEF_DICT, policy).at(-1);
  if (!item) throw new AppError(INSPECTION_ERRORS.RELIEF_POLICY_NOT_FOUND);
  const percent = item.data?.percent;
  const amount = item.data?.amount;
  let fen = 0;
  if (typeof percent === 'number') fen = Math.round((totalFen * Math.min(Math.max(percent, 0), 100)) / 100);
  else if (typeof amount === 'number') fen = toFen(Math.max(amount, 0));
  return Math.min(fen, totalFen);
}

/** The fees of `subjects` under `reliefPolicy` (null: none). Throws for a category without a fee. */
export function quoteFees(dicts: Dicts, subjects: readonly FeeSubject[], reliefPolicy: unknown): FeeQuote {
  const lines = subjects.map((s) => itemFeeFen(dicts, s));
  const totalFen = lines.reduce((sum, l) => sum + l.fen, 0);
  const policy = code(reliefPolicy);
  const relief = reliefFen(dicts, policy, totalFen);
  return {
    items: lines.map((l) => ({ equclacode: l.equclacode, subCategory: l.subCategory, fee: toYuan(l.fen) })),
    feeAmount: toYuan(totalFen),
    reliefPolicy: policy,
    reliefAmount: toYuan(relief),
    payableAmount: toYuan(totalFen - relief),
  };
}

/** Yuan → fen for comparing amounts exactly (payment notifications carry yuan as text). */
export function fenOf(yuan: unknown): number | null {
  const text = typeof yuan === 'number' ? yuan.toFixed(2) : typeof yuan === 'string' ? yuan.trim() : '';
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(text)) return null;
  const [whole, frac = ''] = text.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** Fen → the yuan text of the payment wire (`1190.00`). */
export const yuanText = (fen: number): string => `${Math.trunc(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
