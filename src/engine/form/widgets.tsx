/**
 * Engine-specific field components: thin adapters that store what the server stores (a leaf
 * area code, attachment records, a referenced id, a boolean) over @formily/antd-v5 and antd
 * widgets, each with its read-pretty form for view mode.
 */
import { PreviewText } from '@formily/antd-v5';
import type { Field as FormilyField } from '@formily/core';
import { connect, mapReadPretty, useField, useForm } from '@formily/react';
import { Cascader as AntdCascader, Alert, Button, Modal, QRCode, Space, Typography, Upload, type UploadFile, type UploadProps } from 'antd';
import type { RcFile } from 'antd/es/upload';
import { AttachmentLinks } from '../render/values';
import { refLabelText } from '../render/RefName';
import { MobileOutlined, UploadOutlined } from '@ant-design/icons';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useFeedback } from '../actions/feedback';
import { codePath, type CodeItem } from '../model/codes';
import { useEngine } from '../context';
import { toEngineError, type AttachmentValue, type MobileUploadTicket } from '../data/provider';
import { useRefLabel, useRefOptions } from '../data/hooks';
import { RefPicker, type RefPickerProps } from './RefPicker';
import { copyPairs } from '../../schema/model';
import type { Field } from '../../schema/types';

// numbers and bool: inputs.tsx (every form has them; this module loads when a form needs its widgets)
export { BoolSwitch, BoolText, NumberInput } from './inputs';

// ---------------------------------------------------------------------------------------------
// area: a leaf code shown as a path through the dictionary's tree

interface AreaProps {
  value?: string | null;
  onChange?: (value: string | undefined) => void;
  dataSource?: CodeItem[];
  placeholder?: string;
  allowClear?: boolean;
  disabled?: boolean;
}

function AreaCascaderInput({ value, onChange, dataSource = [], placeholder, allowClear, disabled }: AreaProps) {
  const path = useMemo(() => codePath(dataSource, value).map((i) => i.value), [dataSource, value]);
  return (
    <AntdCascader
      placeholder={placeholder}
      allowClear={allowClear}
      disabled={disabled}
      options={dataSource}
      value={path}
      changeOnSelect
      onChange={(next: unknown) => onChange?.(Array.isArray(next) && next.length ? String(next[next.length - 1]) : undefined)}
    />
  );
}

function AreaText({ value, dataSource = [] }: AreaProps) {
  return <PreviewText.Input value={codePath(dataSource, value).map((i) => i.label).join(' / ') || (value ?? '')} />;
}

export const AreaCascader = connect(AreaCascaderInput, mapReadPretty(AreaText));

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
  const tokens = (accept ?? '').split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
  if (tokens.length === 0) return true;
  const name = file.name.toLowerCase();
  const type = (file.type ?? '').toLowerCase();
  return tokens.some((t) => (t.startsWith('.') ? name.endsWith(t) : t.endsWith('/*') ? type.startsWith(t.slice(0, -1)) : type === t));
}

const toUploadFile = (a: AttachmentValue, i: number): UploadFile => ({ uid: a.id ?? `stored-${i}-${a.url}`, name: a.name, url: a.url, size: a.size, status: 'done', response: a });

/** The stored value of a finished file (an upload's reply, or a value the field already held). */
const storedOf = (file: UploadFile): AttachmentValue | undefined => (file.status === 'done' ? (file.response as AttachmentValue | undefined) : undefined);

const storedFiles = (files: readonly UploadFile[]): AttachmentValue[] => files.map(storedOf).filter((a): a is AttachmentValue => a !== undefined);

const sameFiles = (a: readonly AttachmentValue[], b: readonly AttachmentValue[]) =>
  a.length === b.length && a.every((x, i) => x.id === b[i].id && x.url === b[i].url && x.name === b[i].name);

function AttachmentList({ value }: { value?: AttachmentValue[] | null }) {
  return value?.length ? <AttachmentLinks value={value} /> : <PreviewText.Input value="" />;
}

/** Shown on an attachment field while a file is on its way (the form cannot be submitted until it lands). */
export const UPLOADING_MESSAGE = '文件上传中，请稍候';

function AttachmentInput({ value, onChange, accept, maxCount, disabled, readOnly }: AttachmentProps) {
  const { dataProvider, uploadMaxMb } = useEngine();
  const feedback = useFeedback();
  const form = useForm();
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
    const effectErrors = () => field.feedbacks.filter((f) => f.type === 'error' && f.code === 'EffectError').flatMap((f) => f.messages ?? []);
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
    upload(file as File, { signal: controller.signal, refId: typeof id === 'string' && id ? id : undefined, onProgress: (percent) => onProgress?.({ percent }) }).then(
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
          {accept || maxCount || uploadMaxMb ? (
            <Typography.Text type="secondary">
              {[accept ? `支持 ${accept}` : '', maxCount ? `最多 ${maxCount} 个` : '', uploadMaxMb ? `单个文件不超过 ${uploadMaxMb} MB` : ''].filter(Boolean).join('，')}
            </Typography.Text>
          ) : null}
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

/** How often an open QR code asks whether the phone has sent its file. */
const MOBILE_POLL_MS = 2000;

/**
 * 手机上传: a QR code of a short-lived, single-use address (the data provider's `mobileUpload`,
 * bound to this field and, once saved, its record) that opens the phone upload page; while the
 * dialog is open it polls, and the phone's file joins the field without a reload.
 */
function MobileUploadDialog({ onFiles, onClose }: { onFiles(files: AttachmentValue[]): void; onClose(): void }) {
  const { dataProvider } = useEngine();
  const field = useField();
  const form = useForm();
  const [ticket, setTicket] = useState<MobileUploadTicket | null>(null);
  const [state, setState] = useState<{ names: string[]; expired: boolean; error?: string }>({ names: [], expired: false });
  const deliver = useRef(onFiles);
  deliver.current = onFiles;

  const issue = () => {
    setTicket(null);
    setState({ names: [], expired: false });
    const id = form?.values?.id;
    const title = typeof field?.title === 'string' ? field.title : undefined;
    dataProvider.mobileUpload!({ refId: typeof id === 'string' && id ? id : undefined, field: String(field?.props?.name ?? 'file'), fieldLabel: title }).then(setTicket, (error: unknown) =>
      setState({ names: [], expired: false, error: toEngineError(error).message }),
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
            <QRCode value={ticket?.url ?? '-'} size={200} status={!ticket ? 'loading' : state.expired || done ? 'expired' : 'active'} onRefresh={issue} aria-label="手机上传二维码" />
            {done ? (
              <Alert type="success" showIcon message={`已收到：${state.names.join('、')}`} />
            ) : (
              <Typography.Text type="secondary">用手机扫描二维码，拍照或选择一个文件上传；二维码 10 分钟内有效，只能使用一次。</Typography.Text>
            )}
            {ticket && !done && !state.expired ? (
              <Typography.Link href={ticket.url} target="_blank" rel="noreferrer" data-testid="mobile-upload-link" style={{ wordBreak: 'break-all', fontSize: 12 }}>
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

export const AttachmentUpload = connect(AttachmentInput, mapReadPretty(AttachmentList));

// ---------------------------------------------------------------------------------------------
// ref: the id of a record of another resource, chosen from its list

interface RefProps extends RefPickerProps {
  /** Fields copied from the chosen record into fields beside this one (the field's `copy`: a list of same-named fields, or a map here → there). */
  copy?: Field['copy'];
  /** A new record takes the only record there is to choose from. */
  pickOnly?: boolean;
}

const isBlank = (v: unknown) => v === undefined || v === null || v === '';

/** The ref field's input: a RefPicker that copies the chosen record's fields when asked and may pick the only record there is. */
function RefSelectInput({ resource, copy, where, pickOnly, value, onChange, ...rest }: RefProps) {
  const pairs = useMemo(() => copyPairs({ copy }), [copy]);
  const { options, isLoading } = useRefOptions(resource, '', where);
  const field = useField();
  const form = useForm();
  const { dataProvider } = useEngine();
  const feedback = useFeedback();
  // A reference set before the user touched it (a prefilled new record) fills its empty snapshot fields once.
  const filled = useRef(false);
  useEffect(() => {
    if (filled.current || !pairs.length || typeof value !== 'string' || !value) return;
    filled.current = true;
    const parent = field.path.parent();
    if (pairs.some(([here]) => !isBlank(form.getValuesIn(parent.concat(here))))) return;
    dataProvider.getOne(resource, value).then(
      (row) => pairs.forEach(([here, there]) => form.setValuesIn(parent.concat(here), row[there] ?? undefined)),
      () => undefined,
    );
  }, [pairs, value, resource, field, form, dataProvider]);

  // pickOnly: an empty reference takes the one record the user can choose from (once, not after a clear).
  const picked = useRef(false);
  useEffect(() => {
    if (!pickOnly || picked.current || isLoading || !isBlank(value)) return;
    picked.current = true;
    if (options.length === 1) choose(options[0].value, options[0]);
  });

  const choose = (next: unknown, option?: unknown) => {
    onChange?.(next, option as never);
    if (!pairs.length) return;
    const siblings = (values: Record<string, unknown>) => {
      for (const [here, there] of pairs) form.setValuesIn(field.path.parent().concat(here), values[there] ?? undefined);
    };
    if (!next) return siblings({});
    dataProvider.getOne(resource, String(next)).then(siblings, (err) => void feedback.message.error(toEngineError(err).message));
  };
  return <RefPicker resource={resource} where={where} {...rest} value={value} onChange={choose} />;
}

function RefText({ resource, value }: RefProps) {
  const id = typeof value === 'string' && value ? value : undefined;
  const label = useRefLabel(resource, id);
  return <PreviewText.Input value={id ? refLabelText(label) : ''} />;
}

export const RefSelect = connect(RefSelectInput, mapReadPretty(RefText));
