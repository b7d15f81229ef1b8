/**
 * Records of another resource that point at this one (a detail screen's `related`): the rows of a
 * list screen whose `field` holds this record's id, with that list's columns and order, a few per
 * page, each opening its own detail. In a detail of `tabs` the list is a tab's whole content: no
 * heading of its own (the tab names it), more rows per page.
 */
import { Divider, Empty, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useList, useScreenBundle } from '../data/hooks';
import type { RecordData } from '../data/provider';
import { columnSpecs, tableColumns } from '../list/columns';
import { useScreenLinks } from '../navigation';
import type { ListScreen } from '../../schema/types';
import { LoadFailed } from '../ui';

export interface RelatedSpec {
  title: string;
  screen: string;
  field: string;
  columns?: string[];
  pageSize?: number;
}

/** Rows per page of a related list shown as a tab (unless it sets pageSize). */
const TAB_PAGE_SIZE = 10;

export default function RelatedList({ spec, recordId, inTab = false }: { spec: RelatedSpec; recordId: string; inTab?: boolean }) {
  const { data: bundle, error } = useScreenBundle(spec.screen);
  const [pageNo, setPageNo] = useState(1);
  const pageSize = spec.pageSize ?? (inTab ? TAB_PAGE_SIZE : 5);
  const screen = bundle?.screen as ListScreen | undefined;
  const query = useMemo(
    () => ({ pageNo, pageSize, sort: screen?.defaultSort ? [screen.defaultSort] : undefined, filters: { ...(screen?.where ?? {}), [spec.field]: recordId } }),
    [pageNo, pageSize, screen, spec.field, recordId],
  );
  const list = useList(bundle ? bundle.resource.name : undefined, query);
  const links = useScreenLinks();
  const columns = useMemo(() => {
    if (!bundle || !screen) return [];
    const all = columnSpecs({ ...bundle, screen });
    const specs = spec.columns ? spec.columns.flatMap((name) => all.filter((c) => c.name === name)) : all.filter((c) => c.name !== spec.field);
    const detailOf = (row: RecordData) =>
      links.hrefOf(screen.detail, { id: String(row.id) }) ?? links.hrefOf(screen.form, { mode: 'view', id: String(row.id) });
    // Sorted by the list's own order; the small table offers no sorting of its own.
    return tableColumns(specs, { linkOf: (_spec, row) => detailOf(row) }).map((column) => ({ ...column, sorter: undefined, sortOrder: undefined }));
  }, [bundle, screen, spec.field, spec.columns, links]);
  return (
    <section className="engine-related">
      {!inTab && <Divider orientation="left">{spec.title}</Divider>}
      {error || list.error ? (
        <LoadFailed error={(error ?? list.error)!} onRetry={() => void list.mutate()} />
      ) : (
        <Table<RecordData>
          size="small"
          bordered
          rowKey={(row) => String(row.id)}
          loading={!bundle || list.isLoading}
          columns={columns}
          dataSource={list.data?.list ?? []}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`暂无${spec.title}`} /> }}
          pagination={
            (list.data?.count ?? 0) > pageSize
              ? { current: pageNo, pageSize, total: list.data?.count, size: 'small', showTotal: (total) => `共 ${total} 条`, onChange: setPageNo }
              : false
          }
        />
      )}
    </section>
  );
}
