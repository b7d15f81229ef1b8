/** Errors of random inspection plans (检查计划), added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const INSPECTION_PLAN_ERRORS = defineErrors({
  /** The plan's area lies outside the authority's own (data carries { field }). */
  PLAN_AREA_OUTSIDE: { status: 400, message: '抽查区域不在本机构辖区内' },
  /** The plan's period ends before it starts (data carries { field }). */
  PLAN_PERIOD_INVALID: { status: 400, message: '计划结束日期不能早于开始日期' },
  /** No using unit of the area holds equipment of the chosen categories. */
  PLAN_NO_CANDIDATES: { status: 400, message: '抽查区域内没有持有所选种类设备的使用单位，无法抽取' },
  /** Fewer active inspectors than a check needs. */
  PLAN_TOO_FEW_INSPECTORS: { status: 400, message: '在岗检查人员少于每组检查人员数，请先在“检查人员”中补充' },
  /** Publishing a plan with checks not yet recorded. */
  PLAN_CHECKS_OPEN: { status: 400, message: '本计划还有未登记结果的检查，全部检查完成后才能完成并公开' },
  /** A 责令整改 result without requirement or deadline (data carries { field }). */
  CHECK_RECTIFY_INCOMPLETE: { status: 400, message: '检查结果为责令整改时，须填写整改要求和整改期限' },
} as const);
