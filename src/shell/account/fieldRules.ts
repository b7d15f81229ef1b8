/**
 * antd Form rules for the shell's account forms, over the shared validation catalogue
 * (validators/): the same functions the server's ajv keyword and the Formily binding run.
 */
import type { Rule } from 'antd/es/form';
import { rules, VALIDATION_DELAY_MS, type RuleName } from '../../../validators';

export { PASSWORD_GUIDANCE } from '../../../validators';

/** As in the original portal: each check waits 500 ms after the last change (antd Form.Item `validateDebounce`). */
export const VALIDATE_DEBOUNCE = VALIDATION_DELAY_MS;

/** An antd rule that runs a catalogue rule; empty values pass (required is separate). */
export function fieldRule(name: RuleName): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const message = rules[name](value as string | number | null | undefined);
      if (message) throw new Error(message);
    },
  };
}

export const passwordRule = fieldRule('password');
