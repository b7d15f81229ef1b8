/**
 * Rules of construction notices (schemas/resources/eqm-bcw-basic.json) that its JSON cannot say:
 *
 * - commit (and save with isCommit) is refused while the installer's licence has expired — the
 *   field's `notBefore: "today"` refuses an expired date when it is entered, this refuses a draft
 *   whose licence expired since it was saved;
 * - the unit may cancel an accepted notice only before its planned start date. `cancelRefusal` is
 *   the one rule: the `cancel` effect (legacy cancellationNotice) and checkBcwCancell ask it.
 */
import { todayIn } from '../../../shared/dates';
import { AppError } from '../../errors';
import type { Hook } from '../../resources/hooks';
import type { Row } from '../../resources/repository';
import { CONSTRUCTION_ERRORS, type ConstructionErrorCode } from './errors';

export const CONSTRUCTION = 'eqm-bcw-basic';

const dateOf = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 10) : value instanceof Date ? value.toISOString().slice(0, 10) : '');

/** Why the notice cannot be cancelled today (an error code of CONSTRUCTION_ERRORS), or undefined when it can. */
export function cancelRefusal(row: Row, today = todayIn()): ConstructionErrorCode | undefined {
  if (row.status !== 'accepted') return 'CONSTRUCTION_CANCEL_NOT_ACCEPTED';
  const start = dateOf(row.planStartDate);
  if (!start || start <= today) return 'CONSTRUCTION_CANCEL_STARTED';
  return undefined;
}

/** `effects` of `commit`: the installer's licence must be valid today. */
export const requireValidLicence: Hook = ({ row }) => {
  const expiry = dateOf(row.licenceExpiry);
  if (expiry && expiry < todayIn()) throw new AppError(CONSTRUCTION_ERRORS.CONSTRUCTION_LICENCE_EXPIRED, undefined, { licenceExpiry: expiry });
};

/** `effects` of `cancel`: runs after the state change, so it judges the row as it was (`before`). */
export const requireCancellable: Hook = ({ before, row }) => {
  const refusal = cancelRefusal(before ?? { ...row, status: 'accepted' });
  if (refusal) throw new AppError(CONSTRUCTION_ERRORS[refusal], undefined, { planStartDate: dateOf(row.planStartDate) });
};
