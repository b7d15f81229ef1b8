/**
 * The list toolbar's 导入: a dialog with the template download, one .xlsx file dropped or chosen,
 * the transfer's progress, then either "成功导入 N 条" (the resource's cached reads are dropped, so
 * the list shows the new rows) or the table of the rows' problems — in which case nothing was
 * imported and another file may be tried.
 */
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Progress, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useEngine } from '../context';
import { useInvalidateResource } from '../data/hooks';
import { toEngineError, type ImportProblem, type ImportResult } from '../data/provider';

const XLSX_TYPES = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Phase = 'idle' | 'sending' | 'checking' | 'finished';

export interface ImportDialogProps {
  open: boolean;
  resource: string;
  /** The list screen importing: names the template and lets its column labels be headers. */
  screenId: string;
  title: string;
  onClose(): void;
}

const problemColumns = [
  { key: 'row', dataIndex: 'row', title: '行号', width: 80, render: (row: number) => `第${row}行` },
  { key: 'field', dataIndex: 'field', title: '列', width: 180 },
  { key: 'message', dataIndex: 'message', title: '问题' },
];

export default function ImportDialog({ open, resource, screenId, title, onClose }: ImportDialogProps) {
  const { dataProvider } = useEngine();
  const invalidate = useInvalidateResource();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [percent, setPercent] = useState(0);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = phase === 'sending' || phase === 'checking';
  const templateUrl = dataProvider.importTemplateUrl?.(resource, screenId);

  const reset = () => {
    setFile(null);
    setPhase('idle');
    setPercent(0);
    setResult(null);
    setError(null);
  };

  const choose = (chosen: File) => {
    setResult(null);
    setPhase('idle');
    if (!/\.xlsx$/i.test(chosen.name)) {
      setFile(null);
      setError('仅支持 .xlsx 格式的 Excel 文件，请下载导入模板填写后上传');
    } else {
      setFile(chosen);
      setError(null);
    }
    return Upload.LIST_IGNORE;
  };

  const start = async () => {
    if (!file || !dataProvider.importFile) return;
    setPhase('sending');
    setPercent(0);
    setResult(null);
    setError(null);
    try {
      const outcome = await dataProvider.importFile(resource, file, {
        screen: screenId,
        onProgress: (p) => {
          setPercent(p);
          if (p >= 100) setPhase('checking');
        },
      });
      setResult(outcome);
      if (outcome.ok) void invalidate(resource);
    } catch (e) {
      setError(toEngineError(e).message);
    } finally {
      setPhase('finished');
    }
  };

  const succeeded = result?.ok === true;
  const footer = succeeded
    ? [
        <Button key="done" type="primary" onClick={onClose}>
          完成
        </Button>,
      ]
    : [
        <Button key="cancel" disabled={busy} onClick={onClose}>
          取消
        </Button>,
        <Button key="start" type="primary" loading={busy} disabled={!file} onClick={() => void start()}>
          开始导入
        </Button>,
      ];

  return (
    <Modal
      open={open}
      title={`导入：${title}`}
      width={760}
      footer={footer}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      maskClosable={false}
      keyboard={!busy}
      afterClose={reset}
      className="engine-import-dialog"
    >
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          请按导入模板填写：第一行为表头，带 * 的列为必填；字典项可填写代码或名称，日期填写 YYYY-MM-DD。文件中任何一行有误时不会导入任何数据。
          {templateUrl && (
            <Button type="link" size="small" icon={<DownloadOutlined />} href={templateUrl} target="_blank">
              下载导入模板
            </Button>
          )}
        </Typography.Paragraph>
        <Upload.Dragger accept={XLSX_TYPES} multiple={false} maxCount={1} disabled={busy} showUploadList={false} beforeUpload={choose}>
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{file ? file.name : '点击或将 Excel 文件拖到此处'}</p>
          <p className="ant-upload-hint">{file ? `${(file.size / 1024).toFixed(1)} KB，点击或拖入可更换文件` : '仅支持一个 .xlsx 文件'}</p>
        </Upload.Dragger>
        {busy && (
          <div>
            <Progress percent={phase === 'checking' ? 100 : percent} status="active" />
            <Typography.Text type="secondary">{phase === 'checking' ? '正在校验并写入数据，请稍候…' : '正在上传…'}</Typography.Text>
          </div>
        )}
        {error && <Alert type="error" showIcon message={error} />}
        {result?.ok === true && <Alert type="success" showIcon message={`成功导入 ${result.count} 条`} />}
        {result?.ok === false && <Problems result={result} />}
      </Space>
    </Modal>
  );
}

function Problems({ result }: { result: Extract<ImportResult, { ok: false }> }) {
  const { problems, total } = result;
  const rows = problems.map((p, i) => ({ ...p, key: i }));
  return (
    <>
      <Alert
        type="error"
        showIcon
        message="导入失败，未导入任何数据"
        description={`共 ${total} 处错误${total > problems.length ? `，以下列出前 ${problems.length} 处` : ''}，请修改后重新上传。`}
      />
      <Table<ImportProblem & { key: number }>
        size="small"
        className="engine-import-problems"
        columns={problemColumns}
        dataSource={rows}
        pagination={{ pageSize: 8, hideOnSinglePage: true, showSizeChanger: false }}
      />
    </>
  );
}
