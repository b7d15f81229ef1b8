/**
 * The field decorator of every form: Formily's FormItem, plus the mark of a requirement checked only
 * when the record takes an action (`requiredOn`, e.g. 提交): a grey asterisk saying 提交时必填 (on
 * hover, and to a screen reader), where a field required at every save keeps the red one. The mark
 * takes the asterisk's place, so the label column keeps its width.
 */
import { FormItem as FormilyFormItem } from '@formily/antd-v5';
import { observer, useField } from '@formily/react';
import { Tooltip } from 'antd';
import type { ComponentProps, ReactNode } from 'react';

type FormItemProps = ComponentProps<typeof FormilyFormItem> & {
  /** What the mark says (提交时必填); none: no mark (compile.ts sets it, markedWhen toggles it). */
  stagedMark?: string;
};

/** The grey asterisk of a requirement checked only at some actions. */
export const StagedMark = ({ text }: { text: string }) => (
  <Tooltip title={text}>
    <span className="engine-staged-mark" role="img" aria-label={text}>
      *
    </span>
  </Tooltip>
);

function EngineFormItem({ stagedMark, ...props }: FormItemProps) {
  const field = useField();
  const label = props.label ?? (field?.title as ReactNode);
  // A read-only form (view mode) marks no requirement; nor does a sub-table cell (no label).
  if (!stagedMark || !label || field?.pattern === 'readPretty') return <FormilyFormItem {...props} />;
  return (
    <FormilyFormItem
      {...props}
      asterisk={false}
      label={
        <>
          <StagedMark text={stagedMark} />
          {label}
        </>
      }
    />
  );
}

export const FormItem = Object.assign(observer(EngineFormItem), { BaseItem: FormilyFormItem.BaseItem });
