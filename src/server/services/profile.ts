/**
 * The update-profile payload of the original API: trimmed, empty optional fields stored as null, and the
 * field rules of the original portal that apply to it.
 * The checks are the shared validators/ catalogue, the same code the browser form runs.
 */
import { normalizeIdCard, rules } from '../../../validators';
import { AppError } from '../errors';

export interface ProfileInput {
  name: string;
  identityCard?: string;
  phone?: string;
  mobile?: string;
}

export interface Profile {
  name: string;
  identityCard: string | null;
  phone: string | null;
  mobile: string | null;
}

const optional = (value: string | undefined): string | null => value?.trim() || null;

export function validateProfile(input: ProfileInput): Profile {
  const profile: Profile = {
    name: input.name.trim(),
    identityCard: optional(input.identityCard) === null ? null : normalizeIdCard(input.identityCard as string),
    phone: optional(input.phone),
    mobile: optional(input.mobile),
  };
  if (!profile.name) throw new AppError('BAD_REQUEST');
  if (rules.mobile(profile.mobile)) throw new AppError('MOBILE_INVALID');
  if (rules.phoneOrLandline(profile.phone)) throw new AppError('PHONE_INVALID');
  if (rules.idCard(profile.identityCard)) throw new AppError('ID_CARD_INVALID');
  return profile;
}
