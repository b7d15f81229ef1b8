/**
 * /flowLog-single?id=<record id> (流程日志, outside the shell): the flow log of one record for a
 * signed-in user allowed to see it — the server finds the record's resource and checks its unit
 * (or area) scope; another unit's record answers 记录不存在或无权访问. Without a session the api
 * client sends the visitor to the login page.
 */
import { Alert, Card, Empty, Skeleton, Tag, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import { useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { get, type ApiError } from '../../app/api';
import type { FlowLogEntry } from '../../shared/contract';
import { ACCOUNT_API } from '../../shared/accounts';
import type { PageProps } from '../types';
import './public.css';

interface FlowLogReply {
  resource: string;
  title: string;
  states: Record<string, string>;
  actions: Record<string, string>;
  list: FlowLogEntry[];
}

export default function FlowLogSinglePage({ entry }: PageProps) {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const resource = params.get('resource') ?? undefined;
  const log = useSWR<FlowLogReply, ApiError>(id ? ['flowLog-single', id, resource] : null, () =>
    get<FlowLogReply>(ACCOUNT_API.flowLogSingle, { params: { id, ...(resource ? { resource } : {}) }, silent: true }),
  );
  const data = log.data;
  return (
    <div className="public-page">
      <Card title={data ? `${entry.title} · ${data.title}` : entry.title} className="public-page__card">
        {!id ? (
          <Alert type="warning" showIcon message="缺少记录编号" />
        ) : log.error ? (
          <Alert type="error" showIcon message={log.error.message} />
        ) : !data ? (
          <Skeleton active />
        ) : data.list.length === 0 ? (
          <Empty description="暂无流程记录" />
        ) : (
          <Timeline
            items={data.list.map((e) => ({
              color: e.toState && /return|reject|disagree/.test(e.action) ? 'red' : 'blue',
              children: (
                <div data-testid="flow-entry">
                  <Typography.Text strong>{data.actions[e.action] ?? e.action}</Typography.Text>{' '}
                  {e.toState ? <Tag>{(e.fromState ? `${data.states[e.fromState] ?? e.fromState} → ` : '') + (data.states[e.toState] ?? e.toState)}</Tag> : null}
                  <div>
                    <Typography.Text type="secondary">
                      {e.userName} · {dayjs(e.createDate).format('YYYY-MM-DD HH:mm:ss')}
                    </Typography.Text>
                  </div>
                  {e.opinion ? <div>意见：{e.opinion}</div> : null}
                </div>
              ),
            }))}
          />
        )}
      </Card>
    </div>
  );
}
