/**
 * Who may see and change which rows. The rule, as data:
 *
 * - A resource with `scope: "unit"` (or `"area"`) stores the owner on every row (unit_id, or
 *   area_code; unit rows also keep the owner's area_code). A session owns the rows of its own unit
 *   (or area) and may read them and run every action its role type is allowed (action `roles`
 *   absent, or naming its role type).
 * - A session of an oversight role type (configuration PORTAL_OVERSIGHT_ROLE_TYPES, default
 *   `authority`: supervising bodies) additionally
 *   sees the rows of its whole area — the area code and every code below it (330200 covers
 *   3302xx) — but only for resources whose workflow names its role type in some action's
 *   `roles` (it audits them), and only in the states it audits in: those its actions start from
 *   or lead to (statesOfRole) — a unit's drafts stay the unit's. On such rows it may run exactly
 *   those actions; it never saves, deletes or runs an action that does not name its role type.
 * - Every other row does not exist for the session: reads and writes answer RECORD_NOT_FOUND,
 *   the same as an unknown id, so no existence leaks across units.
 * - A resource with `party` is also served by another unit: a session of the party's role type
 *   (a body serving the owner) reads the rows whose party column names its own unit, in the
 *   party's `states` (default: the states its role type acts in, statesOfRole), and runs exactly
 *   the actions naming its role type on them — a save or a delete only when those name it. With
 *   `via` it files new rows for the owner of a record it serves (record-save.ts), which the owner
 *   does not see while they are in the party's `ownStates` (its drafts). With `through`
 *   it reads, and only reads, the rows a sub-table of the records it serves elsewhere names.
 *   Rows naming another unit do not exist for it.
 * - A resource without `scope` is shared: every session with access sees every row.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { WorkflowAction } from '../../schema/types';
import { mayRunOnOverseen, ownedBy, roleMayRun, statesOfRole, type RecordOwner } from '../../schema/workflow-rules';
import { escapeLike } from '../db/sql';
import { AppError } from '../errors';
import { requireSession } from '../plugins/session';
import { ownedByUnit, tenantOf } from '../plugins/tenant';
import type { ResourceModel } from './model';

/** The acting session, as the engine needs it. */
export interface Actor {
  userId: string;
  userName: string;
  unitId: string;
  areaCode: string;
  roleType: string | null;
  menuIds: readonly string[];
  /** The role type oversees its area's rows (PORTAL_OVERSIGHT_ROLE_TYPES). */
  oversees: boolean;
}

export function actorOf(request: FastifyRequest): Actor {
  const session = requireSession(request);
  const tenant = tenantOf(request);
  return {
    userId: session.user.id,
    userName: session.user.name,
    unitId: tenant.unitId,
    areaCode: tenant.areaCode,
    roleType: session.role?.roleType ?? null,
    menuIds: session.role?.menuIds ?? [],
    oversees: !!session.role && request.server.config.oversightRoleTypes.includes(session.role.roleType),
  };
}

/** `330200` → `3302`, `330000` → `33`, `330212` → `330212`: the prefix of every code in the area. */
export function areaPrefix(areaCode: string): string {
  let prefix = areaCode;
  while (prefix.length > 2 && prefix.endsWith('00')) prefix = prefix.slice(0, -2);
  return prefix;
}

/** Whether the actor's role type oversees this resource's rows across its area. */
export function oversees(model: ResourceModel, actor: Actor): boolean {
  if (!model.ownerColumn || !actor.roleType || !actor.oversees) return false;
  const actions = Object.values(model.workflow?.actions ?? {});
  return actions.some((action) => action?.roles?.includes(actor.roleType!));
}

/** Whether the workflow names the actor's role type in some action (it edits or audits the rows). */
const namedByWorkflow = (model: ResourceModel, actor: Actor) =>
  !!actor.roleType && Object.values(model.workflow?.actions ?? {}).some((a) => a?.roles?.includes(actor.roleType!));

/**
 * A resource with `publicStates`: a role type its workflow does not name (a reader, not a writer)
 * sees exactly the rows in those states, whoever owns them; undefined for everyone else.
 */
function publicOnly(model: ResourceModel, actor: Actor): RawBuilder<boolean> | undefined {
  const states = model.resource.publicStates;
  if (!states?.length || namedByWorkflow(model, actor)) return undefined;
  return sql<boolean>`status IN (${sql.join(states)})`;
}

/**
 * Resource `oversightOnly`: the oversight role types alone read it, each the rows of its whole area
 * (the code and every code below it); any other role is refused, whatever menu its role holds.
 */
function overseenArea(actor: Actor): RawBuilder<boolean> {
  if (!actor.oversees) throw new AppError('FORBIDDEN');
  return sql<boolean>`area_code LIKE ${`${escapeLike(areaPrefix(actor.areaCode))}%`}`;
}

/**
 * Resource `oversightRead`: an oversight role type reads every row of its area, in every state (and
 * writes none: assertWriter). Where the workflow names the role type it audits the rows instead
 * (oversees: the states it acts in, and its actions), and the keyword changes nothing.
 */
const readsArea = (model: ResourceModel, actor: Actor): boolean =>
  !!model.resource.oversightRead && !!model.ownerColumn && actor.oversees && !namedByWorkflow(model, actor);

/** Resource `party`: whether the actor's role type serves the resource's rows. */
export const serves = (model: ResourceModel, actor: Actor): boolean => !!model.party && !!actor.roleType && model.party.roleType === actor.roleType;

/** The rows the serving actor's unit is named on, in the states it reads them in; with `through`, the rows its served records list. */
function servedRows(model: ResourceModel, actor: Actor): RawBuilder<boolean> {
  const party = model.party!;
  const through = party.through;
  if (through)
    return sql<boolean>`id IN (SELECT c.${sql.ref(through.refColumn)} FROM ${sql.table(through.childTable)} AS c JOIN ${sql.table(through.parentTable)} AS p ON p.id = c.parent_id WHERE p.${sql.ref(through.parentColumn)} = ${actor.unitId} AND p.status IN (${sql.join(through.states)}))`;
  const states = party.states ?? statesOfRole(model.workflow, actor.roleType);
  if (!states.length || !party.column) return sql<boolean>`FALSE`;
  return sql<boolean>`(${sql.ref(party.column)} = ${actor.unitId} AND status IN (${sql.join(states)}))`;
}

/** The owner's rows less those a party filed that are still the party's alone (`party.ownStates`). */
function partyDraftsHidden(model: ResourceModel, own: RawBuilder<boolean>): RawBuilder<boolean> {
  const party = model.party;
  if (!party?.column || !party.ownStates?.length) return own;
  return sql<boolean>`(${own} AND NOT (${sql.ref(party.column)} IS NOT NULL AND status IN (${sql.join(party.ownStates)})))`;
}

/** Refuses a write (save, delete, action, import) by an oversight role type to a resource it only reads (`oversightRead`). */
export function assertWriter(model: ResourceModel, actor: Actor): void {
  if (readsArea(model, actor)) throw new AppError('ACTION_NOT_PERMITTED');
}

/** The condition limiting a query to the rows the actor may see; undefined for shared resources. */
export function visibleRows(model: ResourceModel, actor: Actor): RawBuilder<boolean> | undefined {
  if (model.resource.oversightOnly) return overseenArea(actor);
  const published = publicOnly(model, actor);
  if (published) return published;
  if (!model.ownerColumn) return undefined;
  const owned = model.ownerColumn === 'unit_id' ? ownedByUnit({ unitId: actor.unitId, areaCode: actor.areaCode }) : sql<boolean>`area_code = ${actor.areaCode}`;
  const own = partyDraftsHidden(model, owned);
  if (serves(model, actor)) return sql<boolean>`(${own} OR ${servedRows(model, actor)})`;
  if (readsArea(model, actor)) return sql<boolean>`(${own} OR area_code LIKE ${`${escapeLike(areaPrefix(actor.areaCode))}%`})`;
  if (!oversees(model, actor)) return own;
  const states = statesOfRole(model.workflow, actor.roleType);
  return sql<boolean>`(${own} OR (area_code LIKE ${`${escapeLike(areaPrefix(actor.areaCode))}%`} AND status IN (${sql.join(states)})))`;
}

/** Whether visibleRows(model, actor) is nothing or one equality on the owner column (no published states, no overseen area). */
export function visibleByOwnerOnly(model: ResourceModel, actor: Actor): boolean {
  return (
    !model.resource.oversightOnly &&
    !readsArea(model, actor) &&
    !publicOnly(model, actor) &&
    !oversees(model, actor) &&
    !serves(model, actor) &&
    !model.party?.ownStates?.length
  );
}

/** The value of the owner equality visibleRows limits the actor to, when that is all it does (visibleByOwnerOnly). */
export function ownerValue(model: ResourceModel, actor: Actor): string | undefined {
  if (!model.ownerColumn || !visibleByOwnerOnly(model, actor)) return undefined;
  return model.ownerColumn === 'unit_id' ? actor.unitId : actor.areaCode;
}

/** Whether a visible row belongs to the actor (rather than being merely overseen). */
export function ownsRow(model: ResourceModel, actor: Actor, row: RecordOwner): boolean {
  return !model.ownerColumn || ownedBy(model.resource.scope, actor, row);
}

/** The role check of an action that does not depend on the row (refused before any row is read). */
export function assertRoleAllowed(action: Pick<WorkflowAction, 'roles'> | undefined, actor: Actor): void {
  if (!roleMayRun(action, actor.roleType)) throw new AppError('ACTION_NOT_PERMITTED');
}

/** On a row the actor only oversees or serves, only actions naming its role type may run. */
export function assertMayActOn(model: ResourceModel, actor: Actor, row: RecordOwner, action: Pick<WorkflowAction, 'roles'> | undefined): void {
  if (!ownsRow(model, actor, row) && !mayRunOnOverseen(action, actor.roleType)) throw new AppError('ACTION_NOT_PERMITTED');
}

/** RBAC: the role must hold one of the resource's menu access ids (none listed: any role). */
export function assertResourceAccess(model: ResourceModel, actor: Actor): void {
  if (model.access.length > 0 && !model.access.some((id) => actor.menuIds.includes(id))) throw new AppError('FORBIDDEN');
  if (model.resource.oversightOnly && !actor.oversees) throw new AppError('FORBIDDEN');
}
