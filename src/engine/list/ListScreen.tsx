/**
 * A list screen: filters and the keyword box (kept in the URL), a server-paged and sorted antd Table, the toolbar
 * (add, export, import, print, compare), row actions offered by state / role / `when`, selection with batch
 * actions, and column settings. Reads go through `useList`; actions and imports refresh it.
 * A list over a `source` reads a page of rows from that API path instead of the resource routes;
 * its buttons call API paths (`call`), open routes (`to`), registered dialogs (`dialog`) or a form
 * screen in a dialog (`formDialog`).
 * Printing (window.print) shows the title and the table of the current page only: the filter
 * bar, toolbar, selection, row actions and pagination carry `engine-no-print` (src/app/global.css).
 */
import { DiffOutlined, DownloadOutlined, ImportOutlined, PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Space, Table, Typography, type CheckboxProps, type TableProps } from 'antd';
import { Suspense, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isAvailable, openTarget, resolveActions, type ResolvedAction } from '../actions/actions';
import { useActionContext } from '../actions/useActionContext';
import { useRecordAction } from '../actions/useRecordAction';
import { useEngine } from '../context';
import { useList } from '../data/hooks';
import type { ListQuery, RecordData } from '../data/provider';
import { useOwnSearch, useScreenLinks } from '../navigation';
import type { ScreenComponentProps } from '../screen-props';
import { UNREAD_FLAG } from '../../shared/contract';
import type { ListScreen as ListScreenSchema, ToolbarItem } from '../../schema/types';
import { LoadFailed, LoadingBlock, ScreenCard } from '../ui';
import { actionsColumnWidth, columnSpecs, tableColumns } from './columns';
import FilterBar from './FilterBar';
import CompareDialog from './CompareDialog';
import ImportDialog from './ImportDialog';
import { filterSpecs, initialFilters, keywordSearchOf, listQueryOf, presetOf, listStateFromSearch, searchFromListState, type ListState } from './filters';
import { useColumnSettings } from './ColumnSettings';
import { listDialog } from './dialogs';
import FormDialog, { type FormDialogTarget } from './FormDialog';
import { sourcePath, useProof, useRefusal } from '../open/proof';

const rowKey = (row: RecordData) => String(row.id);

function toolbarButtons(items: readonly ToolbarItem[] | undefined, roleType: string | undefined) {
  return (items ?? [])
    .map((t) => (typeof t === 'string' ? { action: t } : t))
    .filter((t) => !t.roles?.length || (roleType !== undefined && t.roles.includes(roleType)));
}

export default function ListScreen({ bundle }: ScreenComponentProps) {
  const screen = bundle.screen as ListScreenSchema;
  const { resource } = bundle;
  const { dataProvider, roleType } = useEngine();
  const links = useScreenLinks();
  const runner = useRecordAction(resource.name, bundle);

  const specs = useMemo(() => filterSpecs({ ...bundle, screen }), [bundle, screen]);
  // The original's isSearchTableData: the table's data is searchable by keyword by default (filters.ts keywordSearchOf).
  // An open list (a proof's) offers no keyword search the source would not know.
  const keyword = useMemo(() => (screen.proof ? undefined : keywordSearchOf(resource)), [resource, screen.proof]);
  const columns = useMemo(() => columnSpecs({ ...bundle, screen }), [bundle, screen]);
  const rowActions = useMemo(() => resolveActions(resource, screen.rowActions), [resource, screen]);
  const batchActions = useMemo(() => resolveActions(resource, screen.batchActions), [resource, screen]);

  const [search, setSearch] = useOwnSearch();
  const state = useMemo(() => listStateFromSearch(screen, specs, search), [screen, specs, search]);
  const setState = (next: ListState) => setSearch(searchFromListState(screen, specs, next));
  const query: ListQuery = useMemo(() => listQueryOf(screen, specs, state, keyword), [specs, state, screen, keyword]);
  const source = screen.source;
  // An open list of whoever proved something: its source read with the token; a refusal asks for the proof again.
  const proof = useProof();
  const { data, error, isLoading, mutate } = useList(resource.name, query, source && sourcePath(source.list, {}, proof), { quiet: proof !== undefined });
  useRefusal(proof, error);
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<{ name: string; id?: string } | null>(null);
  const Dialog = dialog ? listDialog(dialog.name) : undefined;
  const [formDialog, setFormDialog] = useState<FormDialogTarget | null>(null);
  const [selected, setSelected] = useState<RecordData[]>([]);
  const settings = useColumnSettings(screen.id, columns);
  const [importing, setImporting] = useState(false);
  const [comparing, setComparing] = useState<readonly [RecordData, RecordData] | null>(null);
  // A list over a source has no resource routes to export, import or compare through.
  const buttons = toolbarButtons(screen.toolbar, roleType).filter((t) => !source || t.action === 'add' || t.action === 'print');
  const selectable = batchActions.length > 0 || buttons.some((t) => t.action === 'compare');

  const context = useActionContext(resource, 'view');
  /** The detail screen of a row: by the value of `detailBy.field`, else `detail`. */
  const detailOf = (row: RecordData) => (screen.detailBy && screen.detailBy.screens[String(row[screen.detailBy.field] ?? '')]) || screen.detail;
  const detailOr = (row: RecordData) => links.hrefOf(detailOf(row), { id: rowKey(row) }) ?? links.hrefOf(screen.form, { mode: 'view', id: rowKey(row) });

  const runRowAction = async (action: ResolvedAction, rows: RecordData[]) => {
    switch (action.kind) {
      case 'view':
        return detailOf(rows[0]) ? links.open(detailOf(rows[0]), { id: rowKey(rows[0]) }) : links.open(screen.form, { mode: 'view', id: rowKey(rows[0]) });
      case 'edit':
        return links.open(screen.form, { mode: 'edit', id: rowKey(rows[0]) });
      case 'back':
        return links.back();
      case 'open':
        return links.open(action.screen, openTarget(action, rows[0]));
      case 'route':
        return void navigate(`${action.target}?id=${encodeURIComponent(rowKey(rows[0]))}`);
      case 'dialog':
        return setDialog({ name: action.target!, id: rowKey(rows[0]) });
      case 'formDialog':
        return setFormDialog({ screen: action.target!, id: rowKey(rows[0]) });
      default:
        if (await runner.run(action, rows)) setSelected([]);
    }
  };

  // The user's order and choice; columns fixed to an edge stay at that edge.
  const edge = (c: (typeof columns)[number]) => (c.item.fixed === 'left' ? 0 : c.item.fixed === 'right' ? 2 : 1);
  const visibleColumns = settings
    .shown(columns.map((c) => c.name))
    .map((name) => columns.find((c) => c.name === name)!)
    .sort((a, b) => edge(a) - edge(b));
  const tableCols: NonNullable<TableProps<RecordData>['columns']> = tableColumns(visibleColumns, {
    sort: state.sort,
    // `toId`: another field's value is the id the route opens (a row's unit, say); none, no link.
    linkOf: (spec, row) =>
      spec.item.to
        ? spec.item.toId
          ? row[spec.item.toId]
            ? `${spec.item.to}?id=${encodeURIComponent(String(row[spec.item.toId]))}`
            : undefined
          : `${spec.item.to}?id=${encodeURIComponent(rowKey(row))}`
        : detailOr(row),
    filterBy: (spec, value) => {
      const filter = specs.find((f) => f.name === spec.name);
      if (filter) setState({ ...state, filters: { ...state.filters, [filter.name]: filter.input === 'codes' ? [value] : value }, pageNo: 1 });
    },
  });
  if (rowActions.length) {
    tableCols.push({
      key: '__actions',
      title: '操作',
      className: 'engine-no-print',
      fixed: 'right',
      width: actionsColumnWidth(data?.list ?? [], rowActions, context),
      render: (_: unknown, row: RecordData) => (
        <Space size={0} wrap>
          {rowActions
            .filter((a) => isAvailable(a, row, context))
            .map((a) => (
              <Button key={a.name} type="link" size="small" danger={a.danger} disabled={runner.pending !== null} onClick={() => void runRowAction(a, [row])}>
                {a.label}
              </Button>
            ))}
        </Space>
      ),
    });
  }

  const onTableChange: TableProps<RecordData>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      setState({ ...state, pageNo: 1, sort: s.order ? { field: String(s.columnKey ?? s.field), order: s.order === 'descend' ? 'desc' : 'asc' } : undefined });
    } else if (extra.action === 'paginate') {
      setState({ ...state, pageNo: pagination.current ?? 1, pageSize: pagination.pageSize ?? state.pageSize });
    }
  };

  const toolbar = buttons.flatMap((t) => {
    if (t.action === 'add' && (t.to || t.dialog || t.formDialog)) {
      const open = () => (t.to ? void navigate(t.to) : t.formDialog ? setFormDialog({ screen: t.formDialog }) : setDialog({ name: t.dialog! }));
      return [
        <Button key="add" type="primary" icon={<PlusOutlined />} onClick={open}>
          {t.label ?? '新增'}
        </Button>,
      ];
    }
    if (t.action === 'add' && links.hrefOf(screen.form, { mode: 'add' })) {
      return [
        <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => links.open(screen.form, { mode: 'add', values: presetOf(screen) })}>
          {t.label ?? '新增'}
        </Button>,
      ];
    }
    if (t.action === 'export' && dataProvider.exportUrl) {
      const href = dataProvider.exportUrl(resource.name, { sort: query.sort, filters: query.filters }, screen.id);
      return [
        <Button key="export" icon={<DownloadOutlined />} href={href} target="_blank">
          {t.label ?? '导出'}
        </Button>,
      ];
    }
    if (t.action === 'import' && dataProvider.importFile) {
      return [
        <Button key="import" icon={<ImportOutlined />} onClick={() => setImporting(true)}>
          {t.label ?? '导入'}
        </Button>,
      ];
    }
    if (t.action === 'compare') {
      return [
        <Button
          key="compare"
          icon={<DiffOutlined />}
          disabled={selected.length !== 2}
          title="勾选两条记录后对比"
          onClick={() => setComparing([selected[0], selected[1]])}
        >
          {t.label ?? '对比'}
        </Button>,
      ];
    }
    if (t.action === 'print') {
      return [
        <Button key="print" icon={<PrinterOutlined />} onClick={() => window.print()}>
          {t.label ?? '打印'}
        </Button>,
      ];
    }
    return [];
  });
  const batch = batchActions.map((a) => (
    <Button
      key={`batch-${a.name}`}
      danger={a.danger}
      disabled={selected.length === 0 || runner.pending !== null || !selected.every((row) => isAvailable(a, row, context))}
      loading={runner.pending === a.name}
      onClick={() => void runRowAction(a, selected)}
    >
      {selected.length ? `${a.label}（${selected.length}）` : a.label}
    </Button>
  ));

  return (
    <ScreenCard title={screen.title} className="engine-list-print">
      {specs.length || !screen.proof ? (
        <div className="engine-list-filters engine-no-print">
          <FilterBar
            screenId={screen.id}
            specs={specs}
            values={state.filters}
            onSearch={(filters) => setState({ ...state, filters, pageNo: 1 })}
            onReset={() => setState({ filters: initialFilters(specs), pageNo: 1, pageSize: state.pageSize, sort: screen.defaultSort })}
          />
        </div>
      ) : null}
      <div
        className="engine-list-toolbar engine-no-print"
        hidden={Boolean(screen.proof) && toolbar.length + batch.length === 0}
        style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12, gap: 8 }}
      >
        <Space wrap>
          {toolbar}
          {batch}
          {selected.length ? (
            <Typography.Text type="secondary">
              已选 {selected.length} 项
              <Button type="link" size="small" onClick={() => setSelected([])}>
                清空
              </Button>
            </Typography.Text>
          ) : null}
        </Space>
        <Space>
          {keyword ? (
            <Input.Search
              key={state.q ?? ''}
              className="engine-list-keyword"
              defaultValue={state.q}
              allowClear
              maxLength={100}
              placeholder={keyword.placeholder}
              title={keyword.title}
              aria-label={keyword.title}
              style={{ width: 260 }}
              onSearch={(text) => setState({ ...state, q: text.trim() || undefined, pageNo: 1 })}
            />
          ) : null}
          {screen.proof ? null : settings.control}
        </Space>
      </div>
      {error && !data ? (
        <LoadFailed error={error} onRetry={() => void mutate()} />
      ) : isLoading && !data ? (
        <LoadingBlock />
      ) : (
        <Table<RecordData>
          ref={measureRowUnfocusable}
          className="engine-list-table"
          rowKey={rowKey}
          rowClassName={(row) => (row[UNREAD_FLAG] === true ? 'engine-list-unread' : '')}
          size={settings.density}
          columns={tableCols}
          dataSource={data?.list ?? []}
          loading={isLoading}
          scroll={{ x: 'max-content' }}
          onChange={onTableChange}
          onRow={screen.rowOpens ? (row) => ({ onClick: () => void navigate(detailOr(row) ?? ''), style: { cursor: 'pointer' } }) : undefined}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText(source?.empty, state.filters)} /> }}
          rowSelection={
            selectable
              ? {
                  selectedRowKeys: selected.map(rowKey),
                  onChange: (_keys, rows) => setSelected(rows),
                  preserveSelectedRowKeys: false,
                  // A name for each row's checkbox (screen readers otherwise announce a bare "checkbox").
                  // antd hands these props on to the <input>, though its type does not list aria-*.
                  getCheckboxProps: (row) => ({ 'aria-label': `选择第 ${(data?.list ?? []).indexOf(row) + 1} 行` }) as unknown as CheckboxProps,
                }
              : undefined
          }
          pagination={{
            className: 'engine-no-print',
            current: state.pageNo,
            pageSize: state.pageSize,
            total: data?.count ?? 0,
            showSizeChanger: { 'aria-label': '每页条数' },
            showQuickJumper: true,
            showTotal: (total) => (data?.countCapped ? `超过 ${total} 条，请缩小查询范围` : `共 ${total} 条`),
          }}
        />
      )}
      {runner.dialog}
      {dialog && Dialog ? (
        <Suspense fallback={null}>
          <Dialog
            id={dialog.id}
            onClose={() => setDialog(null)}
            onSaved={() => {
              setDialog(null);
              void mutate();
            }}
          />
        </Suspense>
      ) : null}
      {formDialog ? (
        <FormDialog
          target={formDialog}
          onClose={() => {
            setFormDialog(null);
            void mutate();
          }}
        />
      ) : null}
      <CompareDialog bundle={bundle} rows={comparing} onClose={() => setComparing(null)} />
      {dataProvider.importFile && (
        <ImportDialog open={importing} resource={resource.name} screenId={screen.id} title={screen.title} onClose={() => setImporting(false)} />
      )}
    </ScreenCard>
  );
}

/** The empty table's text: the screen's own while no filter is set. */
function emptyText(own: string | undefined, filters: Record<string, unknown>): string {
  const filtered = Object.values(filters).some(
    (v) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.every((x) => x === undefined || x === null || x === '')),
  );
  return own && !filtered ? own : '暂无数据';
}

/**
 * antd's table repeats its header cells in a hidden (aria-hidden) measuring row, the select-all
 * checkbox included: such copies must not take the keyboard focus (screen readers would land on
 * something they are told is not there).
 */
function measureRowUnfocusable(ref: { nativeElement: HTMLDivElement } | null): (() => void) | undefined {
  const table = ref?.nativeElement;
  if (!table) return undefined;
  const mute = () =>
    table
      .querySelectorAll<HTMLElement>('[aria-hidden="true"] input, [aria-hidden="true"] button, [aria-hidden="true"] [tabindex]')
      .forEach((el) => (el.tabIndex = -1));
  mute();
  const observer = new MutationObserver(mute);
  observer.observe(table, { childList: true, subtree: true });
  return () => observer.disconnect();
}
