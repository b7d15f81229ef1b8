/**
 * The server hooks the resources name (`derive`, workflow `effects`): the domain's code for what
 * JSON cannot say. Adding one: write it here, name it in the resource JSON; the lint and the
 * server start both refuse a name that is not in this table.
 */
import type { Hook, HookRegistry } from '../../resources/hooks';
import { equipmentDeadlines } from './deadlines';
import { onlineApplyBill, onlineApplyFees, onlineApplyInspected, onlineApplyItem, onlineApplyPaid } from './online-apply';
import { applyUseChange, issueUseCertificate } from './use-registration';

const HOOKS: Record<string, Hook> = {
  'equipment-deadlines': equipmentDeadlines,
  'use-registration-certificate': issueUseCertificate,
  'use-change-apply': applyUseChange,
  'online-apply-item': onlineApplyItem,
  'online-apply-fees': onlineApplyFees,
  'online-apply-bill': onlineApplyBill,
  'online-apply-paid': onlineApplyPaid,
  'online-apply-inspected': onlineApplyInspected,
};

export const serverHooks: HookRegistry = new Map(Object.entries(HOOKS));
export const HOOK_NAMES: readonly string[] = Object.keys(HOOKS);
