/**
 * What a workflow allows, decided in one place for both sides: the browser (which buttons a record
 * offers) and the server (which requests it refuses with WRONG_STATE / ACTION_NOT_PERMITTED) —
 * the action of a name, the states it runs in, the states a record is editable in, who may run it.
 */
import type { Workflow, WorkflowAction } from './types';

/** Delete of a record without workflow: allowed in any state, removes the row. */
export const PLAIN_DELETE: WorkflowAction = { from: ['*'] };

/** The workflow action `name`; without a workflow only `delete` exists. */
export function actionOf(workflow: Workflow | undefined, name: string): WorkflowAction | undefined {
  if (!workflow) return name === 'delete' ? PLAIN_DELETE : undefined;
  return workflow.actions[name];
}

/** States a record can be edited (saved) in: the save action's, else the initial state; undefined (any) without a workflow. */
export function editableStates(workflow: Workflow | undefined): readonly string[] | undefined {
  if (!workflow) return undefined;
  return workflow.actions.save?.from ?? [workflow.initial];
}

/** Whether a record in `state` may take an action allowed in `states` (undefined or '*': any state). */
export function allowedInState(states: readonly string[] | undefined, state: unknown): boolean {
  return !states || states.includes('*') || states.includes(state === null || state === undefined ? '' : String(state));
}

/** Whether a role type may run an action (no `roles`: any role with access to the resource; `[]`: none). */
export function roleMayRun(action: Pick<WorkflowAction, 'roles'> | undefined, roleType: string | null | undefined): boolean {
  const roles = action?.roles;
  if (!roles) return true;
  return !!roleType && roles.includes(roleType);
}

/** Who owns a record of a scoped resource: a unit (`scope: unit`) or an area (`scope: area`). */
export interface RecordOwner {
  unitId?: unknown;
  areaCode?: unknown;
}

/** The field of a record naming its owner under a resource `scope`: its unit, its area; none for an unscoped resource. */
export function ownerField(scope: string | undefined): keyof RecordOwner | undefined {
  return scope === 'unit' ? 'unitId' : scope === 'area' ? 'areaCode' : undefined;
}

/** Whether `record` belongs to `owner` (rather than being merely overseen by it) under a resource `scope`; an unscoped resource's records belong to everyone. */
export function ownedBy(scope: string | undefined, owner: RecordOwner, record: RecordOwner): boolean {
  const field = ownerField(scope);
  return !field || record[field] === owner[field];
}

/** Whether an action may run on a record the actor does not own but oversees: only when the action names the actor's role type. */
export function mayRunOnOverseen(action: Pick<WorkflowAction, 'roles'> | undefined, roleType: string | null | undefined): boolean {
  return !!roleType && !!action?.roles?.includes(roleType);
}

/**
 * The states a role type audits in: those its actions start from or lead to. An overseeing role
 * (the authority) sees another unit's rows only in these states, so a unit's drafts (and what it
 * withdrew before anyone audited it) stay its own.
 */
export function statesOfRole(workflow: Workflow | undefined, roleType: string | null | undefined): string[] {
  if (!workflow || !roleType) return [];
  const states = new Set<string>();
  for (const action of Object.values(workflow.actions)) {
    if (!action?.roles?.includes(roleType)) continue;
    for (const state of action.from ?? []) if (state !== '*') states.add(state);
    if (action.to) states.add(action.to);
  }
  return [...states];
}
