/** Errors of first registration (首次登记), added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const FIRST_REGISTRATION_ERRORS = defineErrors({
  /** The manufacturer + factory number is already in the registry (data carries { manufacturer, factoryNo }). */
  FIRST_REGISTRATION_ALREADY_REGISTERED: { status: 200, message: '该设备（制造单位、出厂编号相同）已在设备台账中，不能重复首次登记' },
  /** Another first registration of the same equipment waits for the authority (data carries { applyNo }). */
  FIRST_REGISTRATION_PENDING: { status: 200, message: '该设备（制造单位、出厂编号相同）已有待审核的首次登记申请' },
});
