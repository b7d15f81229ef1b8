/** Errors of the equipment registry, added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const EQUIPMENT_ERRORS = defineErrors({
  /** An equipment id that is not the caller's unit's (or does not exist): existence never leaks. */
  EQUIPMENT_NOT_FOUND: { status: 200, message: '设备不存在或不属于本单位' },
});
