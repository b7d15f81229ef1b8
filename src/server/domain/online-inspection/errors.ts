/** Errors of online inspection applications, their fees and payment, added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const INSPECTION_ERRORS = defineErrors({
  INSPECTION_WITHOUT_EQUIPMENT: { status: 400, message: '请至少选择一台报检设备' },
  INSPECTION_DUPLICATE_EQUIPMENT: { status: 400, message: '同一台设备不能重复报检' },
  /** An authCode sent with a save that is not six digits. */
  AUTH_CODE_INVALID: { status: 400, message: '报检授权码应为6位数字' },
  /** A later save sending a code other than the application's own. */
  AUTH_CODE_MISMATCH: { status: 400, message: '报检授权码与该申请不符' },
  INSPECTION_DATE_FUTURE: { status: 400, message: '检验日期不能晚于今天' },
  /** The equipment's category has no fee in the inspection-fee dictionary. */
  FEE_NOT_CONFIGURED: { status: 200, message: '该设备种类未配置检验收费标准，请联系检验机构' },
  FEE_CATEGORY_INVALID: { status: 400, message: '设备种类不正确' },
  FEE_SUBCATEGORY_MISMATCH: { status: 400, message: '设备类别与设备种类不符' },
  RELIEF_POLICY_NOT_FOUND: { status: 400, message: '减免政策不存在' },
  FEE_NOTHING_CHOSEN: { status: 400, message: '请选择设备或设备种类' },
  /** More pieces than one fee calculation takes; data carries { max }, the message names it. */
  FEE_TOO_MANY_ITEMS: { status: 400, message: '一次计算的设备台数超过上限' },
  PAY_CHANNEL_INVALID: { status: 200, message: '不支持的支付方式' },
  /** The payable amount is zero (full relief): nothing to pay online. */
  PAY_AMOUNT_ZERO: { status: 200, message: '应缴金额为零，无需在线缴费' },
  /** confirm-payment without the unit's payment certificate. */
  PAY_CERTIFICATE_MISSING: { status: 200, message: '申请单位尚未上传缴费凭证，不能确认缴费' },
  /** reassign naming no registered inspection body. */
  INSPECTION_BODY_NOT_FOUND: { status: 400, message: '所选检验机构不存在或不是检验机构' },
  /** reassign naming the body that already serves the application. */
  INSPECTION_BODY_UNCHANGED: { status: 400, message: '该申请已由所选检验机构承检，无需改派' },
  /** inspect with a next inspection date not after the inspection date. */
  NEXT_INSPECTION_NOT_AFTER: { status: 400, message: '下次检验日期应晚于检验日期' },
});
