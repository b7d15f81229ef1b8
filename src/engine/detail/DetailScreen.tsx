/**
 * A detail screen: sections as antd Descriptions (codes as labels and tags), the attachments
 * panel, the flow log timeline, and the screen's actions on the record (audit, back, ...).
 */
import { PrinterOutlined } from '@ant-design/icons';
import { Descriptions, Divider, Button, Empty, Tabs, Typography } from 'antd';
import { useMemo, type Key, type ReactNode } from 'react';
import { isAvailable, openTarget, resolveActions, type ResolvedAction } from '../actions/actions';
import { useActionContext } from '../actions/useActionContext';
import { useRecordAction } from '../actions/useRecordAction';
import { useEngine } from '../context';
import { useList, useRecord } from '../data/hooks';
import type { RecordData } from '../data/provider';
import ActionBar from '../form/ActionBar';
import { codesOf } from '../model/codes';
import { resolveField } from '../model/fields';
import { useScreenLinks } from '../navigation';
import { AttachmentLinks, DisplayValue } from '../render/values';
import { holds } from '../../schema/expr';
import { isRelevant } from '../../schema/requirements';
import type { DetailScreen as DetailScreenSchema } from '../../schema/types';
import type { ScreenComponentProps } from '../screen-props';
import { LoadFailed, LoadingBlock, ScreenCard } from '../ui';
import AuditLog from './AuditLog';
import EmbeddedForm from './EmbeddedForm';
import FlowLog, { FlowLogTimeline } from './FlowLog';
import RelatedList from './RelatedList';
import SubTable from './SubTable';
import { sourcePath, useProof, useRefusal } from '../open/proof';

/** A label keeps to one line (a wrapped Chinese label breaks inside a word); the value column takes the rest. */
const DETAIL_LABEL_STYLES = { label: { whiteSpace: 'nowrap' } } as const;

/** The items of a section's `each`: the record's list value, objects only. */
export function eachItems(record: RecordData, field: string): RecordData[] {
  const value = record[field];
  return Array.isArray(value) ? value.filter((v): v is RecordData => v !== null && typeof v === 'object' && !Array.isArray(v)) : [];
}

function DetailBody({ bundle, record, onClose }: ScreenComponentProps & { record: RecordData }) {
  const screen = bundle.screen as DetailScreenSchema;
  const { resource, dicts } = bundle;
  const { roleType } = useEngine();
  const proof = useProof();
  const links = useScreenLinks();
  const runner = useRecordAction(resource.name, bundle);
  const actionContext = useActionContext(resource, 'view');
  const actions = useMemo(
    () => resolveActions(resource, screen.actions).filter((a) => isAvailable(a, record, actionContext)),
    [resource, screen, record, actionContext],
  );
  const close = onClose ?? (() => links.back());
  const scope = { ...record, $mode: 'view', $roleType: roleType };

  const onAction = async (action: ResolvedAction) => {
    if (action.kind === 'back') return close();
    if (action.kind === 'view' || action.kind === 'edit') return links.open(screen.id, { id: String(record.id) });
    if (action.kind === 'open') return links.open(action.screen, openTarget(action, record));
    // A `call` changes the record in place: it is read again (the runner refreshes it) and the detail stays.
    if ((await runner.run(action, [record])) && action.kind !== 'call') close();
  };

  // A detail of `tabs`: the sections (with the logs) under the first tab, each related list a tab of its own.
  const main = (
    <>
      {screen.sections
        .filter((section) => !section.when || holds(section.when, scope))
        .map((section, i) => {
          const block = (values: RecordData, title: ReactNode, key: Key) => (
            <Descriptions
              key={key}
              title={title}
              column={section.columns ?? 2}
              bordered
              size="small"
              style={{ marginBottom: 24 }}
              styles={DETAIL_LABEL_STYLES}
              items={section.fields
                .map((ref) => resolveField(resource, ref))
                // A field whose own `when` does not hold has no value to show (the form hides it, the server stores none).
                .filter(({ field, item }) => (!item.when || holds(item.when, scope)) && isRelevant(field, values))
                .map(({ name, field, item, label }) => ({
                  key: name,
                  label,
                  span: item.span ?? (field.type === 'children' ? (section.columns ?? 2) : undefined),
                  children:
                    field.type === 'children' ? (
                      <SubTable field={field} columns={item.fields} value={values[name]} sources={bundle} />
                    ) : (
                      <DisplayValue field={field} codes={codesOf(resource, name, field, dicts)} value={values[name]} record={values} />
                    ),
                }))}
            />
          );
          if (!section.each) return block(record, section.title, i);
          // One block per item of a list value (e.g. each role with what it grants), under the section's title.
          const items = eachItems(record, section.each.field);
          const titleOf = section.each.title;
          return (
            <div key={i} className="engine-detail-each">
              {section.title ? <Typography.Title level={5}>{section.title}</Typography.Title> : null}
              {items.length === 0 ? (
                <Typography.Paragraph type="secondary">{section.each.empty ?? '暂无数据'}</Typography.Paragraph>
              ) : (
                items.map((item, j) => block(item, titleOf ? String(item[titleOf] ?? '') : undefined, j))
              )}
            </div>
          );
        })}
      {screen.attachments?.length ? (
        <Descriptions
          title="附件"
          column={1}
          bordered
          size="small"
          style={{ marginBottom: 24 }}
          styles={DETAIL_LABEL_STYLES}
          items={screen.attachments.map((name) => ({
            key: name,
            label: resolveField(resource, name).label,
            children: <AttachmentLinks value={record[name]} />,
          }))}
        />
      ) : null}
    </>
  );
  // A record from a `source` or a proof's reply: no resource route reads its logs (a proof's reply may bring its flow log).
  const provedLog = proof?.record ? proof.flowLog : undefined;
  const external = screen.source !== undefined || proof?.record !== undefined;
  const logs = (
    <>
      {screen.flowLog && resource.workflow && (provedLog || !external) && (
        <>
          <Divider orientation="left">流转记录</Divider>
          {provedLog ? <FlowLogTimeline resource={resource} entries={provedLog} /> : <FlowLog resource={resource} id={String(record.id)} />}
        </>
      )}
      {/* A system table's rows are a log themselves: they have no change history of their own. */}
      {!resource.systemTable && !external && <AuditLog resource={resource} id={String(record.id)} />}
      {screen.embed && (!screen.embed.when || holds(screen.embed.when, scope)) ? <EmbeddedForm screenId={screen.embed.screen} record={record} /> : null}
    </>
  );

  return (
    <ScreenCard
      title={screen.title}
      extra={
        screen.print && (screen.print === true || holds(screen.print.when, scope)) ? (
          <Button icon={<PrinterOutlined />} onClick={() => window.print()} className="engine-no-print">
            打印
          </Button>
        ) : undefined
      }
    >
      {screen.tabs ? (
        <Tabs
          className="engine-detail-tabs"
          items={[
            {
              key: 'main',
              label: screen.tabs,
              children: (
                <>
                  {main}
                  {logs}
                </>
              ),
            },
            ...(screen.related ?? []).map((spec) => ({
              key: `${spec.screen}:${spec.field}`,
              label: spec.title,
              children: <RelatedList spec={spec} recordId={String(record.id)} inTab />,
            })),
          ]}
        />
      ) : (
        <>
          {main}
          {screen.related?.map((spec) => (
            <RelatedList key={`${spec.screen}:${spec.field}`} spec={spec} recordId={String(record.id)} />
          ))}
          {logs}
        </>
      )}
      <ActionBar actions={actions} pending={runner.pending} onAction={(a) => void onAction(a)} />
      {runner.dialog}
    </ScreenCard>
  );
}

/** `single`: the id of the user's only record (undefined while loading, null when there is none). */
function useSoleId(resource: string, enabled: boolean): { id: string | null | undefined; error?: Error; retry: () => void } {
  const { data, error, mutate } = useList(enabled ? resource : undefined, SOLE_QUERY);
  return { id: data ? (data.list[0] ? String(data.list[0].id) : null) : undefined, error, retry: () => void mutate() };
}
const SOLE_QUERY = { pageNo: 1, pageSize: 1 };

export default function DetailScreen(props: ScreenComponentProps) {
  const { bundle } = props;
  const screen = bundle.screen as DetailScreenSchema;
  const sole = useSoleId(bundle.resource.name, Boolean(screen.single && !props.id));
  // A record from a `source` (an open screen's, with its proof's token; a refusal asks for the proof
  // again), or the proof's reply itself.
  const proof = useProof();
  const proved = proof?.record;
  const id = proved ? undefined : (props.id ?? sole.id);
  const source = screen.source && id ? sourcePath(screen.source.get, { id }, proof) : undefined;
  const { data, error, isLoading, mutate } = useRecord(bundle.resource.name, id, source, { quiet: proof !== undefined });
  useRefusal(proof, error);
  if (proved) return <DetailBody {...props} id={String(proved.id)} record={proved} />;
  if (sole.error) return <LoadFailed error={sole.error} onRetry={sole.retry} />;
  if (screen.single && id === undefined) return <LoadingBlock rows={10} />;
  if (screen.single && id === null)
    return (
      <ScreenCard title={screen.title}>
        <Empty description={`暂无${bundle.resource.title}`} />
      </ScreenCard>
    );
  if (!id) return <LoadFailed error={new Error('缺少记录编号')} />;
  if (error) return <LoadFailed error={error} onRetry={() => void mutate()} />;
  if (isLoading || !data) return <LoadingBlock rows={10} />;
  return <DetailBody {...props} id={id} record={data} />;
}
