/** Errors of the unit's own records (profile changes, unit type changes), added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const COMPANY_ERRORS = defineErrors({
  UNIT_CHANGE_NOTHING: { status: 400, message: '未修改任何企业信息，无需提交' },
  UNIT_CHANGE_PENDING: { status: 400, message: '已有待审核的变更申请，请等待审核结果或撤回后再提交' },
  UNIT_TYPE_UNCHANGED: { status: 400, message: '变更后的单位类型与当前单位类型相同' },
  UNIT_PROFILE_MISSING: { status: 400, message: '本单位尚无企业信息，请联系监管部门' },
});
