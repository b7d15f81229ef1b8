/** Errors of construction notices (施工告知), added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

const DEFINITIONS = {
  /** Commit of a notice whose installer's licence has expired (data carries { licenceExpiry }). */
  CONSTRUCTION_LICENCE_EXPIRED: { status: 400, message: '施工单位许可证已过期，不能提交施工告知' },
  /** Cancel of a notice that is not accepted. */
  CONSTRUCTION_CANCEL_NOT_ACCEPTED: { status: 200, message: '只有已受理的施工告知可以撤销' },
  /** Cancel on or after the planned start date (data carries { planStartDate }). */
  CONSTRUCTION_CANCEL_STARTED: { status: 200, message: '已到计划开工日期，施工告知不能撤销' },
} as const;

export type ConstructionErrorCode = keyof typeof DEFINITIONS;

export const CONSTRUCTION_ERRORS = defineErrors(DEFINITIONS);

/** The message of a code, for answers that explain without failing (checkBcwCancell). */
export const constructionMessage = (code: ConstructionErrorCode): string => DEFINITIONS[code].message;
