/** Errors of supervision orders (监督整改: 整改通知, 指令书, 监督检查隐患), added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const SUPERVISION_ERRORS = defineErrors({
  /** The credit code names no using unit (data carries { field }). */
  SUPERVISION_UNIT_UNKNOWN: { status: 400, message: '未找到该统一社会信用代码对应的单位，请核对' },
  /** The using unit lies outside the authority's area (data carries { field }). */
  SUPERVISION_UNIT_OUTSIDE_AREA: { status: 400, message: '该使用单位不在本机构辖区内，不能对其下发整改文书' },
  /** The equipment code is not in the unit's registry (data carries { field }). */
  SUPERVISION_EQUIPMENT_UNKNOWN: { status: 400, message: '该使用单位的设备台账中没有此设备代码' },
  /** Issue of a draft whose deadline lies before the issue date (data carries { field }). */
  SUPERVISION_DEADLINE_PASSED: { status: 400, message: '整改期限已过，请修改整改期限后再下发' },
  /** A reply whose completion date precedes the issue date (data carries { field }). */
  SUPERVISION_FINISHED_BEFORE_ISSUE: { status: 400, message: '整改完成日期不能早于下发日期' },
} as const);
