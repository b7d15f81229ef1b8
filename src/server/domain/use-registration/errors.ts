/** Errors of use registration (the certificate issued on approval), added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const REGISTRATION_ERRORS = defineErrors({
  /** The unit's area has no province/city abbreviation for certificate numbers; data carries { area }. */
  CERT_AREA_NOT_CONFIGURED: { status: 400, message: '所在区域未配置登记证编号的省市简称' },
  CERT_CATEGORY_NOT_CONFIGURED: { status: 400, message: '设备种类未配置登记证编号简称' },
  REGISTRATION_WITHOUT_EQUIPMENT: { status: 400, message: '申请中没有设备，不能发证' },
  /** A change of using unit names a credit code no unit of the platform has (data carries { creditCode }). */
  TRANSFER_RECEIVER_NOT_FOUND: { status: 400, message: '接收单位未在平台注册，请核对变更后单位统一社会信用代码' },
  TRANSFER_RECEIVER_NOT_USING_UNIT: { status: 400, message: '接收单位须为使用单位' },
  TRANSFER_RECEIVER_IS_SELF: { status: 400, message: '接收单位不能是本单位' },
  /** Approval of a change of using unit the receiving unit has not accepted (yet). */
  TRANSFER_NOT_ACCEPTED: { status: 200, message: '接收单位尚未确认接收，不能审核通过' },
  TRANSFER_REFUSED: { status: 200, message: '接收单位已拒绝接收，请退回该申请' },
  /** A piece of equipment of the transfer no longer belongs to the applying unit (data carries { equipment }). */
  TRANSFER_EQUIPMENT_NOT_OWNED: { status: 200, message: '设备不属于申请单位，不能转移' },
  /** The receiving unit answers a transfer whose application is no longer waiting. */
  TRANSFER_NOT_PENDING: { status: 200, message: '该变更申请已撤回或已办结' },
});
