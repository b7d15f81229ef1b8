/** What decides whether a screen offers an action for a record: the role type, the mode, and which records the user owns. */
import { useMemo } from 'react';
import type { Resource } from '../../schema/types';
import { useEngine } from '../context';
import { ownsRecord, type ActionContext } from './actions';

export function useActionContext(resource: Pick<Resource, 'scope'>, mode: string | undefined): ActionContext {
  const { roleType, owner } = useEngine();
  return useMemo(() => ({ roleType, mode, owns: ownsRecord(resource, owner) }), [roleType, mode, resource, owner]);
}
