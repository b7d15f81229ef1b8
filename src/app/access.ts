/**
 * Pure access rules (as in the original portal): which role applies, and whether a route is permitted.
 * No browser state here, so the rules are unit-tested directly.
 */
import type { Role } from '../shared/contract';

/** Role type whose home tab is the first menu entry instead of the work desktop. */
export const AUTHORITY_ROLE_TYPE = 'authority';

/**
 * The role to use: the stored one if the user still has it, else the server's current role,
 * else the first of the list (the original portal: "the first role in the list is used if none is stored").
 */
export function pickRole(roleList: readonly Role[], storedId: string | null | undefined, serverId: string | null | undefined): Role | null {
  return roleList.find((r) => r.id === storedId) ?? roleList.find((r) => r.id === serverId) ?? roleList[0] ?? null;
}

export interface AccessSubject {
  /** Menu ids of the current role. */
  menuIds: ReadonlySet<string>;
  isUserSeed: boolean;
}

export interface AccessRule {
  access?: readonly string[];
  seedOnly?: boolean;
}

/** A route with no access list is open to any logged-in user; otherwise any listed id permits it. */
export function canAccess(rule: AccessRule, subject: AccessSubject): boolean {
  if (rule.seedOnly && !subject.isUserSeed) return false;
  if (!rule.access || rule.access.length === 0) return true;
  return rule.access.some((id) => subject.menuIds.has(id));
}
