/**
 * The server hooks the resources name (`derive`, workflow `effects`): the domain's code for what
 * JSON cannot say. Adding one: write it here, name it in the resource JSON; the lint and the
 * server start both refuse a name that is not in this table.
 */
import type { Hook, HookRegistry } from '../../resources/hooks';
import { equipmentDeadlines } from './deadlines';
import { applyUseChange, issueUseCertificate } from './use-registration';

const HOOKS: Record<string, Hook> = {
  'equipment-deadlines': equipmentDeadlines,
  'use-registration-certificate': issueUseCertificate,
  'use-change-apply': applyUseChange,
};

export const serverHooks: HookRegistry = new Map(Object.entries(HOOKS));
export const HOOK_NAMES: readonly string[] = Object.keys(HOOKS);
