/**
 * The workflow log of a record as a timeline: who, when, which action, from → to, opinion (an
 * entry from a proof's reply may leave out who acted and the state before).
 */
import { Empty, Tag, Timeline, Typography } from 'antd';
import { useFlowLog } from '../data/hooks';
import { findCode, type CodeItem } from '../model/codes';
import { actionLabel } from '../../schema/model';
import type { Resource } from '../../schema/types';
import { formatDateTime } from '../render/values';
import { LoadFailed, LoadingBlock } from '../ui';
import type { ProvedLogEntry } from '../open/proof';

const COLORS: Record<string, string> = { 'audit-agree': 'green', 'audit-disagree': 'red', commit: 'blue', revoke: 'gray', cancel: 'gray', delete: 'red' };

function StateTag({ states, code }: { states: readonly CodeItem[]; code: string | null }) {
  if (!code) return <Typography.Text type="secondary">—</Typography.Text>;
  const state = findCode(states, code);
  return (
    <Tag bordered={false} color={state?.color && state.color !== 'default' ? state.color : undefined}>
      {state?.label ?? code}
    </Tag>
  );
}

function flowLogItems(entries: readonly ProvedLogEntry[], resource: Resource) {
  const states: CodeItem[] = (resource.workflow?.states ?? []).map((s) => ({ value: s.code, label: s.label, color: s.color }));
  return entries.map((e, i) => ({
    key: e.id ?? i,
    color: COLORS[e.action] ?? 'blue',
    children: (
      <div>
        <div>
          <Typography.Text strong>{actionLabel(e.action, resource.workflow?.actions[e.action]?.label) ?? e.action}</Typography.Text>
          <Typography.Text type="secondary" style={{ marginLeft: 12 }}>
            {e.userName ? `${e.userName} · ` : ''}
            {formatDateTime(e.createDate)}
          </Typography.Text>
        </div>
        <div style={{ marginTop: 4 }}>
          {e.fromState === undefined ? null : (
            <>
              <StateTag states={states} code={e.fromState} /> →{' '}
            </>
          )}
          <StateTag states={states} code={e.toState} />
        </div>
        {e.opinion && <div style={{ marginTop: 4, whiteSpace: 'pre-wrap' }}>意见：{e.opinion}</div>}
      </div>
    ),
  }));
}

/** Entries at hand (a proof's reply) as the timeline. */
export function FlowLogTimeline({ resource, entries }: { resource: Resource; entries: readonly ProvedLogEntry[] }) {
  if (entries.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无流转记录" />;
  return <Timeline items={flowLogItems(entries, resource)} />;
}

export default function FlowLog({ resource, id }: { resource: Resource; id: string }) {
  const { data, error, isLoading, mutate } = useFlowLog(resource.name, id);
  if (error) return <LoadFailed error={error} onRetry={() => void mutate()} />;
  if (isLoading || !data) return <LoadingBlock rows={3} />;
  return <FlowLogTimeline resource={resource} entries={data} />;
}
