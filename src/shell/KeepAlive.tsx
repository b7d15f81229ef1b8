import { Activity, useRef, type ReactNode } from 'react';
import { TabKeyContext } from './tabs/beforeClose';

interface KeepAliveProps {
  activeKey: string;
  /** The current route's element. */
  outlet: ReactNode;
  /** Keys of the open tabs; pages of closed tabs are dropped. */
  openKeys: readonly string[];
  /** The active page is not kept once left (menu `notCache`). */
  notCache: boolean;
}

/**
 * Keeps the pages of open tabs mounted but hidden (React 19 `<Activity mode="hidden">`), so a
 * form keeps its input when the user switches tabs. `notCache` pages are unmounted when left.
 */
export default function KeepAlive({ activeKey, outlet, openKeys, notCache }: KeepAliveProps) {
  const cache = useRef(new Map<string, { element: ReactNode; notCache: boolean }>());
  const pages = cache.current;
  pages.set(activeKey, { element: outlet, notCache });
  for (const [key, page] of pages) {
    if (key !== activeKey && (page.notCache || !openKeys.includes(key))) pages.delete(key);
  }

  return (
    <>
      {[...pages].map(([key, page]) => (
        <Activity key={key} mode={key === activeKey ? 'visible' : 'hidden'}>
          <TabKeyContext.Provider value={key}>{page.element}</TabKeyContext.Provider>
        </Activity>
      ))}
    </>
  );
}
