import { defineErrors } from '../../errors';

const DEFINITIONS = {
  /** A unit with this credit code exists, or has an application waiting (duplicate check). */
  REGISTER_UNIT_EXISTS: { status: 400, message: '该统一社会信用代码的单位已注册或已有待审核的注册申请' },
  /** The unit name is taken by another unit or pending application. */
  REGISTER_UNIT_NAME_EXISTS: { status: 400, message: '该单位名称已注册或已有待审核的注册申请' },
  /** A maintenance unit's licence number is in the registry under another credit code (approval). */
  REGISTER_LICENCE_NO_EXISTS: { status: 400, message: '该许可证编号已登记在其他维保单位名下，请核实后退回申请' },
  /** The login name is taken by an account or a pending application. */
  REGISTER_LOGIN_EXISTS: { status: 400, message: '该登录账号已被使用，请更换' },
  /** The chosen password is simple (strength below 3) or breaks the password rule. */
  REGISTER_PASSWORD_WEAK: { status: 400, message: '请输入8-14位含字母、数字和特殊符号的密码' },
  /** Progress query or correction with a wrong credit code / SMS code (one message for all). */
  REGISTER_QUERY_FAILED: { status: 400, message: '未查询到注册申请，或短信验证码错误' },
  /** The application is not in a state the applicant may correct. */
  REGISTER_NOT_RETURNED: { status: 400, message: '只有已退回的注册申请可以修改后重新提交' },
  /** Reset application whose login name, credit code or SMS code do not fit (one message for all). */
  RESET_CHECK_FAILED: { status: 400, message: '账号信息或短信验证码不正确' },
  /** An application without the licence file (at least one, uploaded by the visitor within a day). */
  REGISTER_LICENCE_MISSING: { status: 400, message: '请上传营业执照' },
  /** A reset without the identity document. */
  RESET_DOC_MISSING: { status: 400, message: '请上传身份证明材料' },
  /** Too many open calls (applications, checks, uploads) from one address in a minute. */
  OPEN_TOO_FREQUENT: { status: 429, message: '操作过于频繁，请稍后再试' },
  /** A reset is already waiting for this account. */
  RESET_PENDING: { status: 400, message: '该账号已有待审核的密码重置申请' },
} as const;

export type AccountApplyErrorCode = keyof typeof DEFINITIONS;

export const ACCOUNT_APPLY_ERRORS = defineErrors(DEFINITIONS);
