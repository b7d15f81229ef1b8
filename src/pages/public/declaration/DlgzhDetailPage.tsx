/** /dlgzhDetail?id= (申报详情, open): one declaration of the proved mobile. */
import { Alert, Button, Card, Descriptions, Skeleton, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { get, type ApiError } from '../../../app/api';
import { DECLARATION_API, DECLARATION_CATEGORIES, DECLARATION_STATE_COLORS, DECLARATION_STATES, type Declaration } from '../../../shared/declaration';
import type { PageProps } from '../../types';
import { loadAccess } from './access';
import { Prove } from './DlgzhListPage';
import '../public.css';

export default function DlgzhDetailPage({ entry }: PageProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('id') ?? '';
  const [access, setAccess] = useState(loadAccess);
  const detail = useSWR<Declaration, ApiError>(access && id ? ['dlgzh:detail', access.access, id] : null, () =>
    get<Declaration>(DECLARATION_API.detail, { params: { access: access!.access, id }, silent: true }),
  );
  const d = detail.data;
  return (
    <div className="public-page">
      <Card title={entry.title} className="public-page__card" extra={<Button onClick={() => void navigate('/dlgzhList')}>返回列表</Button>}>
        {!access ? (
          <Prove onProved={setAccess} />
        ) : detail.error ? (
          <Alert type="error" showIcon message={detail.error.message} />
        ) : !d ? (
          <Skeleton active />
        ) : (
          <Descriptions bordered column={1} size="small">
            <Descriptions.Item label="申报编号">{d.declNo}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <Tag color={DECLARATION_STATE_COLORS[d.status]}>{DECLARATION_STATES[d.status] ?? d.status}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="申报人">{d.declarant}</Descriptions.Item>
            <Descriptions.Item label="手机号码">{d.mobile}</Descriptions.Item>
            <Descriptions.Item label="事项类别">{DECLARATION_CATEGORIES[d.category] ?? d.category}</Descriptions.Item>
            <Descriptions.Item label="标题">{d.title}</Descriptions.Item>
            <Descriptions.Item label="地点">{d.address ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="申报内容">
              <div style={{ whiteSpace: 'pre-wrap' }}>{d.content}</div>
            </Descriptions.Item>
            <Descriptions.Item label="申报时间">{dayjs(d.createDate).format('YYYY-MM-DD HH:mm')}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
    </div>
  );
}
