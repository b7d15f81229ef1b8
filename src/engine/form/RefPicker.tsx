/**
 * A choice of one record of another resource, searched on the server as the user types and shown
 * by its label. Plain antd: the form's ref widget builds on it, and a list filters by a reference
 * with it (`lazy`: the choices load when the picker opens).
 */
import { Select, type SelectProps } from 'antd';
import { useEffect, useState } from 'react';
import { useRefLabel, useRefOptions } from '../data/hooks';
import { refLabelText } from '../render/RefName';

export interface RefPickerProps extends SelectProps<unknown> {
  resource: string;
  /** List parameters limiting the choice. */
  where?: Record<string, unknown>;
  /** Ask the server for the choices only once the user opens the picker or types (a list's filter: not a request per list opened). */
  lazy?: boolean;
}

const SEARCH_DELAY_MS = 300;

/** A value that settles `delay` ms after its last change. */
function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export function RefPicker({ resource, where, lazy = false, value, onOpenChange, ...rest }: RefPickerProps) {
  const [text, setText] = useState('');
  const [opened, setOpened] = useState(!lazy);
  const { options, isLoading } = useRefOptions(resource, useSettled(text, SEARCH_DELAY_MS), where, opened || text !== '');
  // The current value among the options, else by its own label (a value beyond the first page).
  const current = typeof value === 'string' && value && !options.some((o) => o.value === value) ? value : undefined;
  const currentLabel = useRefLabel(resource, current);
  const shown = current ? [{ value: current, label: refLabelText(currentLabel) }, ...options] : options;
  return (
    <Select
      showSearch
      filterOption={false}
      onSearch={setText}
      onBlur={() => setText('')}
      onOpenChange={(open) => {
        if (open) setOpened(true);
        onOpenChange?.(open);
      }}
      notFoundContent={isLoading ? '加载中…' : '无匹配记录'}
      {...rest}
      value={value}
      loading={isLoading}
      options={shown}
    />
  );
}
