import { Spin } from 'antd';
import { Suspense, type ComponentType } from 'react';
import type { PageProps } from '../pages/types';
import type { RouteEntry } from './menu';

interface PageHostProps {
  entry: RouteEntry;
  page: ComponentType<PageProps>;
}

/** Renders a (lazily loaded) page with its menu entry. */
export default function PageHost({ entry, page: Page }: PageHostProps) {
  return (
    <Suspense fallback={<Spin delay={200} size="large" style={{ display: 'block', padding: '20vh 0' }} />}>
      <Page entry={entry} />
    </Suspense>
  );
}
