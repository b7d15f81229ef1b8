/**
 * The open verification of a printed document (/verify/:token, no login): the QR code on a printed
 * certificate or notice leads here. Shows only what the server's verification answers — document
 * type, number, unit name, date and current state — or that no such document exists.
 */
import { Card, Descriptions, Result, Skeleton, Tag } from 'antd';
import { useParams } from 'react-router-dom';
import useSWR from 'swr';
import { get } from '../../app/api';
import { useAppConfig } from '../../app/config';
import { documentVerifyPath, type DocumentVerification } from '../../shared/documents';
import './verify.css';

export default function DocumentVerifyPage() {
  const { token = '' } = useParams();
  const { productName } = useAppConfig();
  const { data, error, isLoading } = useSWR<DocumentVerification, Error>(
    token ? ['document-verify', token] : null,
    () => get<DocumentVerification>(documentVerifyPath(token), { silent: true }),
    {
      revalidateOnFocus: false,
      shouldRetryOnError: false,
    },
  );
  return (
    <div className="verify-page">
      <Card className="verify-page__card" title={`${productName} · 文书真伪核验`}>
        {isLoading ? (
          <Skeleton active paragraph={{ rows: 5 }} />
        ) : error || !data ? (
          <Result status="warning" title="未找到该文书" subTitle={error instanceof Error && error.message ? error.message : '请核对二维码或验证链接'} />
        ) : (
          <>
            <Result
              status={data.valid ? 'success' : 'warning'}
              title={data.valid ? '该文书真实有效' : '该文书真实，但当前已失效'}
              subTitle={data.valid ? '以下信息与平台登记一致' : `文书当前状态：${data.stateLabel ?? '未知'}`}
            />
            <Descriptions
              bordered
              column={1}
              size="middle"
              data-testid="verify-facts"
              items={[
                { key: 'title', label: '文书类型', children: data.title },
                { key: 'number', label: '文书编号', children: data.number ?? '—' },
                { key: 'unit', label: '单位名称', children: data.unitName ?? '—' },
                { key: 'date', label: '日期', children: data.date ?? '—' },
                { key: 'state', label: '当前状态', children: <Tag color={data.valid ? 'success' : 'default'}>{data.stateLabel ?? '—'}</Tag> },
              ]}
            />
          </>
        )}
      </Card>
    </div>
  );
}
