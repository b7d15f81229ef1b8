/**
 * Engine-specific field components: thin adapters that store what the server stores (a leaf
 * area code, attachment records, a referenced id, a boolean) over @formily/antd-v5 and antd
 * widgets, each with its read-pretty form for view mode.
 */
import { PreviewText, Switch, Upload } from '@formily/antd-v5';
import { connect, mapReadPretty } from '@formily/react';
import { Cascader as AntdCascader, Button, Select, type SelectProps, type UploadFile } from 'antd';
import { AttachmentLinks } from '../render/values';
import { UploadOutlined } from '@ant-design/icons';
import { useMemo } from 'react';
import { codePath, type CodeItem } from '../model/codes';
import { useEngine } from '../context';
import type { AttachmentValue } from '../data/provider';
import { useRefOptions } from '../data/hooks';

// ---------------------------------------------------------------------------------------------
// bool

export const BoolText = ({ value }: { value?: unknown }) => <PreviewText.Input value={value === true ? '是' : value === false ? '否' : ''} />;

/** Switch that reads 是 / 否 in view mode. */
export const BoolSwitch = connect(Switch, mapReadPretty(BoolText));

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
// attachment: an array of { name, url } stored with the record

interface AttachmentProps {
  value?: AttachmentValue[] | null;
  onChange?: (value: AttachmentValue[]) => void;
  accept?: string;
  maxCount?: number;
  disabled?: boolean;
}

const toUploadFile = (a: AttachmentValue, i: number): UploadFile => ({ uid: a.id ?? `${i}-${a.url}`, name: a.name, url: a.url, status: 'done' });

function toAttachment(file: UploadFile): AttachmentValue | undefined {
  const stored = (file.response as AttachmentValue | undefined) ?? (file.url ? { name: file.name, url: file.url, id: file.uid } : undefined);
  return file.status === 'done' ? stored : undefined;
}

function AttachmentList({ value }: { value?: AttachmentValue[] | null }) {
  return value?.length ? <AttachmentLinks value={value} /> : <PreviewText.Input value="" />;
}

function AttachmentInput({ value, onChange, accept, maxCount, disabled }: AttachmentProps) {
  const { dataProvider } = useEngine();
  const upload = dataProvider.upload;
  const fileList = useMemo(() => (value ?? []).map(toUploadFile), [value]);
  return (
    <Upload
      accept={accept}
      maxCount={maxCount}
      disabled={disabled || !upload}
      fileList={fileList}
      customRequest={({ file, onSuccess, onError }) => {
        upload?.(file as File).then((stored) => onSuccess?.(stored), (error: Error) => onError?.(error));
      }}
      onChange={(files: UploadFile[]) => onChange?.(files.map(toAttachment).filter((a): a is AttachmentValue => a !== undefined))}
    >
      <Button icon={<UploadOutlined />} disabled={disabled || !upload}>
        {upload ? '上传附件' : '暂不支持上传'}
      </Button>
    </Upload>
  );
}

export const AttachmentUpload = connect(AttachmentInput, mapReadPretty(AttachmentList));

// ---------------------------------------------------------------------------------------------
// ref: the id of a record of another resource, chosen from its list

interface RefProps extends SelectProps {
  resource: string;
}

function RefSelectInput({ resource, ...rest }: RefProps) {
  const { options, isLoading } = useRefOptions(resource);
  return <Select showSearch optionFilterProp="label" {...rest} loading={isLoading} options={options} />;
}

function RefText({ resource, value }: RefProps) {
  const { options } = useRefOptions(resource);
  return <PreviewText.Input value={options.find((o) => o.value === value)?.label ?? (value as string) ?? ''} />;
}

export const RefSelect = connect(RefSelectInput, mapReadPretty(RefText));
