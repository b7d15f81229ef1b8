/** A reference as the record it names reads (its label), fetched in batches with the rest of the screen's references. */
import { Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useRefLabel } from '../data/hooks';

/** Shown for a reference the user cannot read: the record was deleted or lies outside their scope. */
const UNREADABLE_REF_TEXT = '（已删除或无权查看）';

/** A reference's label as plain text: … while loading, UNREADABLE_REF_TEXT when unreadable. */
export const refLabelText = (label: string | null | undefined): string => label ?? (label === null ? UNREADABLE_REF_TEXT : '…');

export function RefName({ resource, id }: { resource: string; id: string }): ReactNode {
  const label = useRefLabel(resource, id);
  if (label === undefined)
    return (
      <Typography.Text type="secondary" aria-busy>
        …
      </Typography.Text>
    );
  if (label === null) {
    return (
      <Tooltip title={`编号 ${id}`}>
        <Typography.Text type="secondary">{UNREADABLE_REF_TEXT}</Typography.Text>
      </Tooltip>
    );
  }
  return label;
}
