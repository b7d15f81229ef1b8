/**
 * The input of a field with `optionTree`: a checkable tree of the options an API path answers.
 * The value is the checked leaves' values; once the options are in, a value they do not offer is
 * dropped (the server checks the saved values again).
 */
import { connect, mapReadPretty } from '@formily/react';
import { Alert, Tree, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import useSWR from 'swr';
import { useEngine } from '../context';
import { checkedLeaves, leafValues, treeData, valueList, type OptionNode } from './option-tree';

interface Props {
  path: string;
  value?: unknown;
  onChange?: (value: string[]) => void;
  disabled?: boolean;
  readOnly?: boolean;
  'aria-label'?: string;
}

function useOptions(path: string) {
  const { dataProvider } = useEngine();
  return useSWR<OptionNode[], Error>(['engine', 'optionTree', path], async () => {
    if (!dataProvider.getAt) throw new Error('当前数据源不能读取选项');
    const reply = (await dataProvider.getAt(path)) as unknown;
    return Array.isArray(reply) ? (reply as OptionNode[]) : [];
  });
}

function OptionTreeInput({ path, value, onChange, disabled, readOnly, 'aria-label': ariaLabel }: Props) {
  const options = useOptions(path);
  const leaves = useMemo(() => leafValues(options.data ?? []), [options.data]);
  const data = useMemo(() => treeData(options.data ?? []), [options.data]);
  const checked = valueList(value);
  const offered = options.data ? checked.filter((v) => leaves.has(v)) : checked;
  // A value the options do not offer (no longer grantable, say) is dropped once they are in.
  useEffect(() => {
    if (options.data && offered.length !== checked.length) onChange?.(offered);
  });
  if (options.error) return <Alert type="error" showIcon message={options.error.message} />;
  return (
    <div className="engine-option-tree" data-testid="option-tree" aria-label={ariaLabel}>
      {data.length ? (
        <Tree
          checkable
          selectable={false}
          disabled={disabled || readOnly}
          treeData={data}
          checkedKeys={offered}
          onCheck={(keys) => onChange?.(checkedLeaves(Array.isArray(keys) ? keys : keys.checked, leaves))}
        />
      ) : (
        <Typography.Text type="secondary">{options.isLoading ? '加载中…' : '没有可选的项'}</Typography.Text>
      )}
    </div>
  );
}

export const OptionTree = connect(
  OptionTreeInput,
  mapReadPretty((props: Props) => <OptionTreeInput {...props} readOnly />),
);
