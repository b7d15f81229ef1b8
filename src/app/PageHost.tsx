import { Spin } from 'antd';
import { Suspense, useEffect, type ComponentType } from 'react';
import type { PageProps } from '../pages/types';
import type { RouteEntry } from './menu';
import { hold } from './progress';

interface PageHostProps {
  entry: RouteEntry;
  page: ComponentType<PageProps>;
}

/** Shown while a page's code downloads; the top progress bar runs meanwhile. */
function PageLoading() {
  useEffect(() => hold(), []);
  return <Spin delay={200} size="large" style={{ display: 'block', padding: '20vh 0' }} />;
}

/** Renders a (lazily loaded) page with its menu entry. */
export default function PageHost({ entry, page: Page }: PageHostProps) {
  return (
    <Suspense fallback={<PageLoading />}>
      <Page entry={entry} />
    </Suspense>
  );
}
