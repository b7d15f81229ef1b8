/**
 * /attachmentUploadMobile?token=<token> (手机上传附件, outside the shell, no login): the page a
 * desktop attachment field's QR code opens on a phone. It shows whose form the file goes to and
 * until when the code works, takes one file (the camera or the phone's files) with the desktop
 * upload's limits, and then says the file is on the computer: the desktop form polls and shows it.
 * The token is single-use and short-lived; the server refuses a spent or expired one.
 */
import { CameraOutlined, CheckCircleFilled, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Progress, Result, Skeleton, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { get, postFile, type ApiError } from '../../app/api';
import { ACCOUNT_API, type MobileTokenInfo } from '../../shared/accounts';
import type { PageProps } from '../types';
import './public.css';

export default function MobileUploadPage({ entry }: PageProps) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const info = useSWR<MobileTokenInfo, ApiError>(
    token ? ['mobile-upload', token] : null,
    () => get<MobileTokenInfo>(ACCOUNT_API.mobileInfo, { params: { token }, silent: true }),
    {
      revalidateOnFocus: false,
      shouldRetryOnError: false,
    },
  );
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const send = async (file: File) => {
    setError(null);
    const max = info.data?.maxMb ?? 20;
    if (file.size > max * 1024 * 1024) {
      setError(`文件不能超过 ${max} MB`);
      return;
    }
    setPercent(0);
    try {
      await postFile(ACCOUNT_API.mobileUpload, { file }, { params: { token }, silent: true, onProgress: setPercent });
      setDone(file.name);
    } catch (err) {
      setError((err as ApiError).message);
    } finally {
      setPercent(null);
    }
  };

  const accept = (info.data?.accept ?? []).map((e) => `.${e}`).join(',');
  return (
    <div className="public-page">
      <Card title={entry.title} className="public-page__card public-page__card--narrow">
        {!token ? (
          <Result status="warning" title="缺少上传凭证" subTitle="请用手机扫描电脑表单上的二维码打开本页面" />
        ) : done ? (
          <Result
            status="success"
            icon={<CheckCircleFilled />}
            title="上传成功"
            subTitle={`${done} 已上传，电脑上的表单会自动显示该文件。如需再传，请在电脑上重新生成二维码。`}
          />
        ) : info.error ? (
          <Result status="warning" title={info.error.message} />
        ) : !info.data ? (
          <Skeleton active />
        ) : (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label="单位">{info.data.orgname}</Descriptions.Item>
              {info.data.fieldLabel ? <Descriptions.Item label="附件">{info.data.fieldLabel}</Descriptions.Item> : null}
              <Descriptions.Item label="有效期至">{dayjs(info.data.expiresAt).format('HH:mm')}</Descriptions.Item>
            </Descriptions>
            <Typography.Text type="secondary">
              支持 {info.data.accept.join('、').toUpperCase()}，单个文件不超过 {info.data.maxMb} MB；每个二维码只能上传一个文件。
            </Typography.Text>
            <input
              ref={input}
              type="file"
              accept={accept}
              style={{ display: 'none' }}
              data-testid="mobile-file"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void send(file);
              }}
            />
            <Button
              type="primary"
              size="large"
              block
              icon={percent === null ? <UploadOutlined /> : undefined}
              loading={percent !== null}
              onClick={() => input.current?.click()}
            >
              选择文件或拍照上传
            </Button>
            {percent !== null ? <Progress percent={percent} /> : null}
            {error ? <Alert type="error" showIcon message={error} /> : null}
            <Typography.Text type="secondary">
              <CameraOutlined /> 手机上可直接拍摄证件或现场照片。
            </Typography.Text>
          </Space>
        )}
      </Card>
    </div>
  );
}
