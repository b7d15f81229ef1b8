/**
 * Formily's ArrayTable with its horizontal scroll region reachable by keyboard. A sub-table wider
 * than its section scrolls inside `.ant-table-content`; while it has no rows there is nothing in it
 * to focus, so a keyboard user could not scroll it (WCAG 2.1.1, axe `scrollable-region-focusable`).
 * The region takes a tab stop and a name. Loaded on first use like the ArrayTable it wraps.
 */
import { ArrayTable } from '@formily/antd-v5/esm/array-table';
import { useEffect, useRef, type ComponentProps } from 'react';

export function ScrollableArrayTable(props: ComponentProps<typeof ArrayTable>) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const region of box.current?.querySelectorAll<HTMLElement>('.ant-table-content') ?? []) {
      if (region.hasAttribute('tabindex')) continue;
      region.tabIndex = 0;
      region.setAttribute('role', 'region');
      region.setAttribute('aria-label', '明细表格');
    }
  });
  return (
    <div ref={box}>
      <ArrayTable {...props} />
    </div>
  );
}

// The members a schema names (ArrayTable.Column, .Addition, …) are ArrayTable's own.
Object.assign(ScrollableArrayTable, ArrayTable);
