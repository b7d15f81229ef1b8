import { Button, Space } from 'antd';
import type { ResolvedAction } from '../actions/actions';

interface ActionBarProps {
  actions: readonly ResolvedAction[];
  /** Name of the running action: every button is disabled, that one spins. */
  pending: string | null;
  onAction: (action: ResolvedAction) => void;
  align?: 'start' | 'center' | 'end';
}

const PRIMARY = new Set(['commit', 'save', 'audit-agree']);

/** The buttons at the foot of a form or detail, in screen order. */
export default function ActionBar({ actions, pending, onAction, align = 'center' }: ActionBarProps) {
  if (actions.length === 0) return null;
  // The last primary-looking action is the main one (commit over save).
  const main = [...actions].reverse().find((a) => PRIMARY.has(a.name))?.name;
  return (
    <Space className="engine-action-bar" style={{ display: 'flex', justifyContent: align, marginTop: 24 }} wrap>
      {actions.map((action) => (
        <Button
          key={action.name}
          type={action.name === main ? 'primary' : 'default'}
          danger={action.danger}
          loading={pending === action.name}
          disabled={pending !== null && pending !== action.name}
          onClick={() => onAction(action)}
        >
          {action.label}
        </Button>
      ))}
    </Space>
  );
}
