/**
 * The change-password form of SPEC.md §5, as form logic without a view: the current password is
 * required (请输入当前密码); the new password is required and checked by the catalogue's password
 * rule on blur and on submit (not while typing); the confirmation is required (请确认新密码) and,
 * once every field is valid, must equal the new password — otherwise the caller shows a modal
 * titled 提示 saying 两次输入的新密码不一致.
 */
import { createForm, type Form } from '@formily/core';
import { changePasswordMessages, PASSWORD_GUIDANCE, passwordsMatch } from '../../../validators';
import { deferredValidation, fieldValidators, requiredValidator, type DeferOptions, type FieldValidator } from './rules';

export { changePasswordMessages, PASSWORD_GUIDANCE, passwordsMatch };

export interface ChangePasswordValues {
  oldPassword?: string | null;
  newPassword?: string | null;
  /** Only compared in the browser, never sent. */
  newPasswordCheck?: string | null;
}

export type ChangePasswordField = keyof ChangePasswordValues;

/** The validators of each field, for `createField({ validator })` or a schema's `x-validator`. */
export const changePasswordValidators: Readonly<Record<ChangePasswordField, FieldValidator[]>> = {
  oldPassword: [requiredValidator(changePasswordMessages.oldPasswordRequired)],
  newPassword: fieldValidators({ required: true, requiredMessage: changePasswordMessages.newPasswordRequired, rules: ['password'] }),
  newPasswordCheck: [requiredValidator(changePasswordMessages.confirmRequired)],
};

/** Deferral options of the form: every field but the new password, which is checked on blur only. */
export const changePasswordDeferral: DeferOptions = { pattern: '*(!newPassword)' };

/** A notice to show in a modal. */
export interface Notice {
  title: string;
  content: string;
}

/** The 提示 modal for a confirmation that differs from the new password; undefined when they match. */
export function passwordMismatchNotice(values: ChangePasswordValues): Notice | undefined {
  return passwordsMatch(values.newPassword, values.newPasswordCheck)
    ? undefined
    : { title: changePasswordMessages.mismatchTitle, content: changePasswordMessages.mismatch };
}

/** A Formily form holding the three fields with their validators and the deferral. */
export function createChangePasswordForm(): Form<ChangePasswordValues> {
  const form = createForm<ChangePasswordValues>({ effects: deferredValidation(changePasswordDeferral) });
  for (const [name, validator] of Object.entries(changePasswordValidators)) form.createField({ name, validator });
  return form;
}

export type ChangePasswordOutcome =
  | { ok: true; values: { oldPassword: string; newPassword: string } }
  | { ok: false; notice?: Notice };

/**
 * Submit logic: validates every field at once (messages appear on the fields), then compares the
 * passwords. Returns the values to send, or — on a mismatch — the notice for the modal.
 */
export async function checkChangePassword(form: Form<ChangePasswordValues>): Promise<ChangePasswordOutcome> {
  try {
    await form.validate();
  } catch {
    return { ok: false };
  }
  const notice = passwordMismatchNotice(form.values);
  if (notice) return { ok: false, notice };
  return { ok: true, values: { oldPassword: String(form.values.oldPassword), newPassword: String(form.values.newPassword) } };
}
