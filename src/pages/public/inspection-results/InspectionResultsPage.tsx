/**
 * 双随机抽查结果公示 (/inspection-results, no login): the results of the supervising authority's
 * finished random inspection plans — plan, checked unit, check date, result — as the open route
 * answers them (src/shared/inspection-results.ts). No officer, no finding is ever sent here.
 */
import { Card, Input, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import useSWR from 'swr';
import { get } from '../../../app/api';
import { useAppConfig } from '../../../app/config';
import { INSPECTION_RESULTS_ROUTE, type InspectionResult, type InspectionResultsPage } from '../../../shared/inspection-results';
import './inspection-results.css';

const RESULT_COLORS: Record<string, string> = { pass: 'green', rectify: 'orange', case: 'red' };

export default function InspectionResultsPage() {
  const { productName } = useAppConfig();
  const [pageNo, setPageNo] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [q, setQ] = useState('');
  const query = new URLSearchParams({ pageNo: String(pageNo), pageSize: String(pageSize), ...(q ? { q } : {}) });
  const { data, error, isLoading } = useSWR<InspectionResultsPage, Error>(
    ['inspection-results', query.toString()],
    () => get<InspectionResultsPage>(`${INSPECTION_RESULTS_ROUTE}?${query}`, { silent: true }),
    {
      revalidateOnFocus: false,
      keepPreviousData: true,
    },
  );
  return (
    <div className="inspection-results">
      <Card className="inspection-results__card" title={`${productName} · 双随机抽查结果公示`}>
        <Typography.Paragraph type="secondary">
          依据“双随机、一公开”监管要求，监督管理部门随机抽取检查对象、随机选派执法检查人员，检查结果向社会公开。以下为已完成检查计划的抽查结果。
        </Typography.Paragraph>
        <Input.Search
          className="inspection-results__search"
          placeholder="按单位名称或计划名称查询"
          aria-label="按单位名称或计划名称查询"
          allowClear
          enterButton="查询"
          onSearch={(value) => {
            setQ(value.trim());
            setPageNo(1);
          }}
        />
        {error ? <Typography.Text type="danger">公示信息加载失败，请稍后重试</Typography.Text> : null}
        <Table<InspectionResult>
          rowKey={(r) => `${r.planNo}-${r.unitName}-${r.checkDate}`}
          loading={isLoading}
          dataSource={data?.list ?? []}
          size="middle"
          locale={{ emptyText: '暂无公示的抽查结果' }}
          scroll={{ x: 900 }}
          columns={[
            { title: '计划编号', dataIndex: 'planNo', width: 120 },
            { title: '检查计划', dataIndex: 'planTitle', ellipsis: true },
            { title: '被检查单位', dataIndex: 'unitName', width: 260, ellipsis: true },
            { title: '检查日期', dataIndex: 'checkDate', width: 110 },
            {
              title: '检查结果',
              dataIndex: 'resultLabel',
              width: 100,
              render: (label: string | null, r) => (label ? <Tag color={RESULT_COLORS[r.result ?? ''] ?? 'default'}>{label}</Tag> : '—'),
            },
            { title: '公开日期', dataIndex: 'publishDate', width: 110 },
          ]}
          pagination={{
            current: pageNo,
            pageSize,
            total: data?.count ?? 0,
            showSizeChanger: true,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (page, size) => {
              setPageNo(size === pageSize ? page : 1);
              setPageSize(size);
            },
          }}
        />
      </Card>
    </div>
  );
}
