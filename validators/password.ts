/**
 * Password strength and the change-password form of the original portal.
 *
 * Passwords are never trimmed: a space is a character of the password. Length counts Unicode
 * code points, so a character outside the BMP is one character, as the user sees it.
 */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 14;
/** A password scoring below this is "simple" (as in the original portal). */
export const SIMPLE_PASSWORD_THRESHOLD = 3;

/** Guidance shown beside new-password fields (the original portal's change-password form). */
export const PASSWORD_GUIDANCE = '密码长度为8-14位，至少包含一个数字、一个字母和一个特殊字符（! @ # $ % ^ & * ? ( )）';

/** Messages of the change-password form; the mismatch is shown in a modal titled 提示. */
export const changePasswordMessages = {
  oldPasswordRequired: '请输入当前密码',
  newPasswordRequired: '请输入新密码',
  confirmRequired: '请确认新密码',
  mismatchTitle: '提示',
  mismatch: '两次输入的新密码不一致',
} as const;

const CLASSES = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];

/** Length in code points: what the user sees as characters. */
const length = (pw: string): number => Array.from(pw).length;

/** 0 if shorter than 8 characters, otherwise the number of classes present (lower, upper, digit, other). */
export function passwordStrength(pw: string): number {
  if (typeof pw !== 'string' || length(pw) < PASSWORD_MIN_LENGTH) return 0;
  return CLASSES.filter((re) => re.test(pw)).length;
}

/** A password rated below 3 is simple: a login with it sets the simple-password flag. */
export function isSimplePassword(pw: string): boolean {
  return passwordStrength(pw) < SIMPLE_PASSWORD_THRESHOLD;
}

/** The password rule: 8–14 characters and at least 3 of the 4 classes. */
export function isValidPassword(pw: string): boolean {
  return length(pw) <= PASSWORD_MAX_LENGTH && !isSimplePassword(pw);
}

/** The confirmation equals the new password (both absent counts as equal; "required" is separate). */
export function passwordsMatch(a: string | null | undefined, b: string | null | undefined): boolean {
  return (a ?? '') === (b ?? '');
}
