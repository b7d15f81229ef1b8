/**
 * The workflow rules both sides use (src/schema/workflow-rules.ts): the browser's buttons and the
 * server's refusals come from these functions, so they cannot disagree.
 */
import { describe, expect, it } from 'vitest';
import { resolveActions, isAvailable } from '../../src/engine/actions/actions';
import type { Resource, Workflow } from '../../src/schema/types';
import { actionOf, allowedInState, editableStates, PLAIN_DELETE, roleMayRun, statesOfRole } from '../../src/schema/workflow-rules';

const workflow: Workflow = {
  initial: 'draft',
  states: { draft: { label: '草稿' }, submitted: { label: '已提交' }, approved: { label: '已通过', final: true } },
  actions: {
    commit: { from: ['draft'], to: 'submitted' },
    'audit-agree': { from: ['submitted'], to: 'approved', roles: ['authority'] },
    delete: { from: ['draft'] },
    nobody: { from: ['draft'], roles: [] },
  },
} as unknown as Workflow;

describe('workflow rules', () => {
  it('finds actions; without a workflow only delete, allowed in any state', () => {
    expect(actionOf(workflow, 'commit')?.to).toBe('submitted');
    expect(actionOf(workflow, 'nope')).toBeUndefined();
    expect(actionOf(undefined, 'delete')).toBe(PLAIN_DELETE);
    expect(actionOf(undefined, 'commit')).toBeUndefined();
  });

  it('editable states: the save action’s, else the initial state, any without a workflow', () => {
    expect(editableStates(workflow)).toEqual(['draft']);
    expect(editableStates({ ...workflow, actions: { ...workflow.actions, save: { from: ['draft', 'returned'] } } })).toEqual(['draft', 'returned']);
    expect(editableStates(undefined)).toBeUndefined();
  });

  it.each([
    [['draft'], 'draft', true],
    [['draft'], 'submitted', false],
    [['draft'], null, false],
    [['*'], 'anything', true],
    [undefined, 'anything', true],
  ] as const)('states %j allow a record in %s: %s', (states, state, allowed) => {
    expect(allowedInState(states, state)).toBe(allowed);
  });

  it.each([
    [undefined, 'unit', true],
    [undefined, undefined, true],
    [['authority'], 'authority', true],
    [['authority'], 'unit', false],
    [['authority'], undefined, false],
    [[], 'authority', false],
  ] as const)('roles %j let role type %s run it: %s', (roles, roleType, may) => {
    expect(roleMayRun(roles ? { roles: [...roles] } : {}, roleType)).toBe(may);
  });

  it('a role audits in the states its actions start from or lead to (never the drafts of others)', () => {
    expect(statesOfRole(workflow, 'authority').sort()).toEqual(['approved', 'submitted']);
    expect(statesOfRole(workflow, 'unit')).toEqual([]);
    expect(statesOfRole(workflow, null)).toEqual([]);
    expect(statesOfRole(undefined, 'authority')).toEqual([]);
  });

  it('the browser offers a button exactly when the server would run the action', () => {
    const resource = { name: 'x', label: 'X', fields: {}, workflow } as unknown as Resource;
    const actions = resolveActions(resource, ['commit', 'audit-agree', 'delete', 'nobody']);
    for (const action of actions) {
      for (const status of ['draft', 'submitted', 'approved']) {
        for (const roleType of ['unit', 'authority']) {
          const server = allowedInState(workflow.actions[action.name]!.from, status) && roleMayRun(workflow.actions[action.name], roleType);
          expect(isAvailable(action, { status }, { roleType }), `${action.name} in ${status} as ${roleType}`).toBe(server);
        }
      }
    }
  });
});
