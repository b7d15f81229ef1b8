/**
 * The attachment field component (AttachmentUpload): the files chosen go up one by one through the
 * data provider's `upload`, and the value holds the finished ones; in view mode, links to the
 * stored files. Files sent from a phone come in through MobileUploadDialog.tsx.
 */
import { PreviewText } from '@formily/antd-v5';
import type { Field as FormilyField } from '@formily/core';
import { connect, mapReadPretty, useField, useForm } from '@formily/react';
import { Button, Space, Typography, Upload, type UploadFile, type UploadProps } from 'antd';
import type { RcFile } from 'antd/es/upload';
import { AttachmentLinks } from '../render/values';
import { MobileOutlined, UploadOutlined } from '@ant-design/icons';
import { useEffect, useRef, useState } from 'react';
import { useFeedback } from '../actions/feedback';
import { useEngine } from '../context';
import { toEngineError, type AttachmentValue } from '../data/provider';
import { MobileUploadDialog } from './MobileUploadDialog';

// ---------------------------------------------------------------------------------------------
// attachment: an array of { id, name, url, size } stored with the record; each file goes up
// through the data provider's `upload` as soon as it is chosen (progress in the list), and the
// value holds the finished ones only.

interface AttachmentProps {
  value?: AttachmentValue[] | null;
  onChange?: (value: AttachmentValue[]) => void;
  /** Accepted types as in `<input accept>`: extensions (".pdf") and MIME types ("image/*"). */
  accept?: string;
  maxCount?: number;
  disabled?: boolean;
  readOnly?: boolean;
}

/** Whether a chosen file matches an `accept` list (empty: anything). */
export function acceptsFile(accept: string | undefined, file: { name: string; type?: string }): boolean {
  const tokens = (accept ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  if (tokens.length === 0) return true;
  const name = file.name.toLowerCase();
  const type = (file.type ?? '').toLowerCase();
  return tokens.some((t) => (t.startsWith('.') ? name.endsWith(t) : t.endsWith('/*') ? type.startsWith(t.slice(0, -1)) : type === t));
}

const toUploadFile = (a: AttachmentValue, i: number): UploadFile => ({
  uid: a.id ?? `stored-${i}-${a.url}`,
  name: a.name,
  url: a.url,
  size: a.size,
  status: 'done',
  response: a,
});

/** The stored value of a finished file (an upload's reply, or a value the field already held). */
const storedOf = (file: UploadFile): AttachmentValue | undefined => (file.status === 'done' ? (file.response as AttachmentValue | undefined) : undefined);

const storedFiles = (files: readonly UploadFile[]): AttachmentValue[] => files.map(storedOf).filter((a): a is AttachmentValue => a !== undefined);

const sameFiles = (a: readonly AttachmentValue[], b: readonly AttachmentValue[]) =>
  a.length === b.length && a.every((x, i) => x.id === b[i].id && x.url === b[i].url && x.name === b[i].name);

function AttachmentList({ value }: { value?: AttachmentValue[] | null }) {
  return value?.length ? <AttachmentLinks value={value} /> : <PreviewText.Input value="" />;
}

/** The size limit the hint states when the host gives none (EngineProvider `uploadMaxMb`): the server's default. */
export const DEFAULT_UPLOAD_MAX_MB = 20;

/** The hint beside the upload button: accepted types, how many files, how large each may be. */
export const uploadHint = ({ accept, maxCount, maxMb }: { accept?: string; maxCount?: number; maxMb: number }): string =>
  [accept ? `支持 ${accept}` : '', maxCount ? `最多 ${maxCount} 个` : '', `单个文件不超过 ${maxMb} MB`].filter(Boolean).join('，');

/** Shown on an attachment field while a file is on its way (the form cannot be submitted until it lands). */
export const UPLOADING_MESSAGE = '文件上传中，请稍候';

function AttachmentInput({ value, onChange, accept, maxCount, disabled, readOnly }: AttachmentProps) {
  const { dataProvider, uploadMaxMb } = useEngine();
  const feedback = useFeedback();
  const form = useForm<Record<string, unknown>>();
  const upload = dataProvider.upload;
  const [files, setFiles] = useState<UploadFile[]>(() => (value ?? []).map(toUploadFile));
  const current = useRef(files);
  current.current = files;
  const [mobileOpen, setMobileOpen] = useState(false);

  // A value set from outside (a record loaded, the form reset) replaces the finished files; uploads in flight stay.
  useEffect(() => {
    const stored = value ?? [];
    setFiles((list) => (sameFiles(storedFiles(list), stored) ? list : [...stored.map(toUploadFile), ...list.filter((f) => f.status === 'uploading')]));
  }, [value]);

  // A file still uploading is not in the value yet: hold the form's submit with a message until it lands.
  const field = useField<FormilyField>();
  const uploading = files.some((f) => f.status === 'uploading');
  useEffect(() => {
    if (!uploading || !field || !('setFeedback' in field)) return undefined;
    // Only the effect errors are touched (validation keeps its own), and only this message of them.
    const effectErrors = () => field.feedbacks.filter((f) => f.type === 'error' && f.code === 'EffectError').flatMap((f): unknown[] => f.messages ?? []);
    field.setFeedback({ type: 'error', code: 'EffectError', messages: [...effectErrors().filter((m) => m !== UPLOADING_MESSAGE), UPLOADING_MESSAGE] });
    return () => {
      field.setFeedback({ type: 'error', code: 'EffectError', messages: effectErrors().filter((m) => m !== UPLOADING_MESSAGE) });
    };
  }, [field, uploading]);

  if (!upload) return <AttachmentList value={value} />;
  const locked = disabled || readOnly;
  const single = maxCount === 1;

  const update = (list: UploadFile[]) => {
    // A finished upload becomes a link to its stored file.
    const next = list.map((f) => {
      const stored = storedOf(f);
      return stored && !f.url ? { ...f, url: stored.url } : f;
    });
    setFiles(next);
    const stored = storedFiles(next);
    if (!sameFiles(stored, value ?? [])) onChange?.(stored);
  };

  const beforeUpload = (file: RcFile, batch: RcFile[]) => {
    const first = batch.indexOf(file) === 0;
    if (!acceptsFile(accept, file)) {
      feedback.message.error(`不支持的文件类型：${file.name}${accept ? `（仅支持 ${accept}）` : ''}`);
      return Upload.LIST_IGNORE;
    }
    // One file replaces the other; otherwise files past maxCount are refused (one message per choice).
    if (!single && maxCount && current.current.length + batch.indexOf(file) >= maxCount) {
      if (first || current.current.length + batch.indexOf(file) === maxCount) feedback.message.error(`最多上传 ${maxCount} 个文件`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onProgress, onSuccess, onError }) => {
    const controller = new AbortController();
    const id = form?.values?.id;
    upload(file as File, {
      signal: controller.signal,
      refId: typeof id === 'string' && id ? id : undefined,
      onProgress: (percent) => onProgress?.({ percent }),
    }).then(
      (stored) => onSuccess?.(stored),
      (error: unknown) => {
        if (!controller.signal.aborted) onError?.(toEngineError(error));
      },
    );
    return { abort: () => controller.abort() };
  };

  // Files sent from a phone join the value (one file replaces the other in a single-file field).
  const received = (incoming: AttachmentValue[]) => {
    const held = value ?? [];
    const fresh = incoming.filter((f) => !held.some((h) => h.id === f.id));
    if (fresh.length === 0) return;
    const next = single ? fresh.slice(-1) : [...held, ...fresh].slice(0, maxCount ?? Infinity);
    onChange?.(next);
  };

  const input = (
    <Upload
      accept={accept}
      multiple={!single}
      maxCount={single ? 1 : undefined}
      disabled={locked}
      fileList={files}
      beforeUpload={beforeUpload}
      customRequest={customRequest}
      onChange={({ file, fileList }) => {
        if (file.status === 'error') {
          feedback.message.error(`${file.name} 上传失败：${toEngineError(file.error).message}`);
          update(fileList.filter((f) => f.uid !== file.uid));
          return;
        }
        update(fileList);
      }}
    >
      {locked ? null : (
        <Space size={8} wrap>
          <Button icon={<UploadOutlined />}>上传附件</Button>
          {dataProvider.mobileUpload ? (
            <Button
              icon={<MobileOutlined />}
              onClick={(e) => {
                // The Upload around opens the file chooser on any click inside it.
                e.stopPropagation();
                setMobileOpen(true);
              }}
            >
              手机上传
            </Button>
          ) : null}
          <Typography.Text type="secondary">{uploadHint({ accept, maxCount, maxMb: uploadMaxMb ?? DEFAULT_UPLOAD_MAX_MB })}</Typography.Text>
        </Space>
      )}
    </Upload>
  );
  return (
    <>
      {input}
      {mobileOpen ? <MobileUploadDialog onFiles={received} onClose={() => setMobileOpen(false)} /> : null}
    </>
  );
}

export const AttachmentUpload = connect(AttachmentInput, mapReadPretty(AttachmentList));
