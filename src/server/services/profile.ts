/**
 * The update-profile payload (SPEC.md §3): trimmed, empty optional fields stored as null, and the
 * field rules of SPEC.md §5 that apply to it.
 *
 * The rule checks are a local stand-in for the shared validators/ catalogue (not in this tree yet);
 * once it lands, replace `isMobile` / `isPhoneOrLandline` / `isIdCard` with its rules.
 */
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

const MOBILE = /^1[3-9]\d{9}$/;
const LANDLINE = /^(0\d{2,3}-)?\d{7,8}$/;
const ID_CARD_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CARD_CHECK = '10X98765432';

function isMobile(value: string): boolean {
  return MOBILE.test(value);
}

function isPhoneOrLandline(value: string): boolean {
  return MOBILE.test(value) || LANDLINE.test(value);
}

/** GB 11643: 17 digits, a valid birth date (not in the future) and the check character. */
function isIdCard(value: string): boolean {
  if (!/^\d{17}[\dX]$/.test(value)) return false;
  const [y, m, d] = [value.slice(6, 10), value.slice(10, 12), value.slice(12, 14)].map(Number);
  const birth = new Date(Date.UTC(y, m - 1, d));
  if (birth.getUTCFullYear() !== y || birth.getUTCMonth() !== m - 1 || birth.getUTCDate() !== d || birth.getTime() > Date.now()) return false;
  const sum = ID_CARD_WEIGHTS.reduce((acc, w, i) => acc + w * Number(value[i]), 0);
  return ID_CARD_CHECK[sum % 11] === value[17];
}

const optional = (value: string | undefined): string | null => value?.trim() || null;

export function validateProfile(input: ProfileInput): Profile {
  const profile: Profile = {
    name: input.name.trim(),
    identityCard: optional(input.identityCard)?.toUpperCase() ?? null,
    phone: optional(input.phone),
    mobile: optional(input.mobile),
  };
  if (!profile.name) throw new AppError('BAD_REQUEST');
  if (profile.mobile && !isMobile(profile.mobile)) throw new AppError('MOBILE_INVALID');
  if (profile.phone && !isPhoneOrLandline(profile.phone)) throw new AppError('PHONE_INVALID');
  if (profile.identityCard && !isIdCard(profile.identityCard)) throw new AppError('ID_CARD_INVALID');
  return profile;
}
