/**
 * The phone upload dialog of an attachment field (手机上传): a QR code of a single-use address
 * whose file joins the field while the dialog is open.
 */
import { useField, useForm } from '@formily/react';
import { Alert, Button, Modal, QRCode, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useEngine } from '../context';
import { toEngineError, type AttachmentValue, type MobileUploadTicket } from '../data/provider';

/** How often an open QR code asks whether the phone has sent its file. */
const MOBILE_POLL_MS = 2000;

/**
 * 手机上传: a QR code of a short-lived, single-use address (the data provider's `mobileUpload`,
 * bound to this field and, once saved, its record) that opens the phone upload page; while the
 * dialog is open it polls, and the phone's file joins the field without a reload.
 */
export function MobileUploadDialog({ onFiles, onClose }: { onFiles(files: AttachmentValue[]): void; onClose(): void }) {
  const { dataProvider } = useEngine();
  const field = useField();
  const form = useForm<Record<string, unknown>>();
  const [ticket, setTicket] = useState<MobileUploadTicket | null>(null);
  const [state, setState] = useState<{ names: string[]; expired: boolean; error?: string }>({ names: [], expired: false });
  const deliver = useRef(onFiles);
  deliver.current = onFiles;

  const issue = () => {
    setTicket(null);
    setState({ names: [], expired: false });
    const id = form?.values?.id;
    const title = typeof field?.title === 'string' ? field.title : undefined;
    dataProvider.mobileUpload!({ refId: typeof id === 'string' && id ? id : undefined, field: String(field?.props?.name ?? 'file'), fieldLabel: title }).then(
      setTicket,
      (error: unknown) => setState({ names: [], expired: false, error: toEngineError(error).message }),
    );
  };

  useEffect(() => {
    if (!ticket || !dataProvider.mobileUploadState) return undefined;
    const controller = new AbortController();
    const timer = setInterval(() => {
      dataProvider.mobileUploadState!(ticket.token, controller.signal).then(
        (next) => {
          if (next.files.length) {
            clearInterval(timer);
            deliver.current(next.files);
            setState({ names: next.files.map((f) => f.name), expired: false });
          } else if (next.expired || next.used || new Date(ticket.expiresAt).getTime() <= Date.now()) {
            clearInterval(timer);
            setState({ names: [], expired: true });
          }
        },
        () => undefined,
      );
    }, MOBILE_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [ticket, dataProvider]);

  // A first ticket when the dialog opens.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening
  useEffect(issue, []);

  const done = state.names.length > 0;
  return (
    <Modal open title="手机扫码上传" footer={null} width={380} destroyOnHidden onCancel={onClose}>
      <div style={{ textAlign: 'center' }}>
        {state.error ? (
          <Alert type="error" showIcon message={state.error} />
        ) : (
          <Space direction="vertical" size={12} align="center" style={{ width: '100%' }}>
            <QRCode
              value={ticket?.url ?? '-'}
              size={200}
              status={!ticket ? 'loading' : state.expired || done ? 'expired' : 'active'}
              onRefresh={issue}
              aria-label="手机上传二维码"
            />
            {done ? (
              <Alert type="success" showIcon message={`已收到：${state.names.join('、')}`} />
            ) : (
              <Typography.Text type="secondary">用手机扫描二维码，拍照或选择一个文件上传；二维码 10 分钟内有效，只能使用一次。</Typography.Text>
            )}
            {ticket && !done && !state.expired ? (
              <Typography.Link
                href={ticket.url}
                target="_blank"
                rel="noreferrer"
                data-testid="mobile-upload-link"
                style={{ wordBreak: 'break-all', fontSize: 12 }}
              >
                在手机浏览器中打开此链接
              </Typography.Link>
            ) : null}
            {done || state.expired ? <Button onClick={issue}>重新生成二维码</Button> : null}
          </Space>
        )}
      </div>
    </Modal>
  );
}
