/**
 * The before-close hook: a page calls `useBeforeClose(check)`; when its tab is closed and `check`
 * resolves true (or no check was given) the tab bar asks 确定要关闭该页面吗？ first.
 */
import { createContext, useContext, useEffect, useRef } from 'react';
import { notify } from '../../app/notify';

export type BeforeCloseCheck = () => boolean | Promise<boolean>;

/** The key of the tab a page is rendered in (provided by the keep-alive host). */
export const TabKeyContext = createContext<string | null>(null);

const checks = new Map<string, () => boolean | Promise<boolean>>();

export function useBeforeClose(check?: BeforeCloseCheck): void {
  const key = useContext(TabKeyContext);
  const latest = useRef(check);
  useEffect(() => {
    latest.current = check;
  });
  useEffect(() => {
    if (!key) return;
    checks.set(key, () => latest.current?.() ?? true);
    return () => {
      checks.delete(key);
    };
  }, [key]);
}

function confirmClose(): Promise<boolean> {
  return new Promise((resolve) => {
    notify.modal.confirm({
      title: '提示',
      content: '确定要关闭该页面吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/** True when the tabs may close: no registered check objects, or the user confirmed once. */
export async function mayClose(keys: readonly string[]): Promise<boolean> {
  const results = await Promise.all(keys.map(async (k) => checks.get(k)?.() ?? false));
  return results.some(Boolean) ? confirmClose() : true;
}
