/** Names of the validation catalogue that field `rules` may use (validators/index.ts). */
import { ruleNames } from '../validators';

export const RULE_NAMES: readonly string[] = ruleNames;
