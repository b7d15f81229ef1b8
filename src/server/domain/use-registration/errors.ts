/** Errors of use registration (the certificate issued on approval), added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const REGISTRATION_ERRORS = defineErrors({
  /** The unit's area has no province/city abbreviation for certificate numbers; data carries { area }. */
  CERT_AREA_NOT_CONFIGURED: { status: 400, message: '所在区域未配置登记证编号的省市简称' },
  CERT_CATEGORY_NOT_CONFIGURED: { status: 400, message: '设备种类未配置登记证编号简称' },
  REGISTRATION_WITHOUT_EQUIPMENT: { status: 400, message: '申请中没有设备，不能发证' },
});
