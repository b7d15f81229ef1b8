/**
 * A registered component whose code loads on first use (sub-tables, area cascader, attachments,
 * tree select, rich text …): a form without such a field does not download or parse them.
 * Once loaded, every later instance renders it directly (no Suspense step).
 */
import { Skeleton } from 'antd';
import { Suspense, use, useState, type ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- registered components take any props
type AnyComponent = ComponentType<any>;

/** A component loading `pick(await load())`; `members` (e.g. ArrayTable.Column) load with it. */
export function lazyWidget<M>(
  load: () => Promise<M>,
  pick: (module: M) => AnyComponent,
  members: readonly string[] = [],
): AnyComponent & Record<string, AnyComponent> {
  let loaded: M | undefined;
  let pending: Promise<M> | undefined;
  const start = () => (pending ??= load().then((module) => (loaded = module)));

  const part = (resolve: (module: M) => AnyComponent, name: string): AnyComponent => {
    function Loading(props: object) {
      const Component = resolve(use(start()));
      return <Component {...props} />;
    }
    function LazyWidget(props: object) {
      // Decided once per instance, so loading never remounts what the user is working in.
      const [ready] = useState(() => loaded !== undefined);
      if (ready) {
        const Component = resolve(loaded as M);
        return <Component {...props} />;
      }
      return (
        <Suspense fallback={<Skeleton.Input active block size="small" />}>
          <Loading {...props} />
        </Suspense>
      );
    }
    LazyWidget.displayName = `Lazy(${name})`;
    return LazyWidget;
  };

  const widget = part(pick, 'widget') as AnyComponent & Record<string, AnyComponent>;
  for (const member of members) widget[member] = part((module) => (pick(module) as unknown as Record<string, AnyComponent>)[member], member);
  return widget;
}
