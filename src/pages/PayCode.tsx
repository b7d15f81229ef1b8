/**
 * /pay-code?id=<application id>: scan-code payment of an online inspection application (the original
 *  routes /pay-code). The one hand-written page of the payment step: it asks the server for the
 * application's order on the chosen channel (toPay — the same open order on every visit), shows
 * its QR code (the sandbox provider's cashier page), the amount, the order number and a countdown
 * to expiry, and polls the application until the provider's notification has marked it paid, then
 * shows 已缴费 with the receipt number. 模拟支付 opens the sandbox page for demonstrations.
 */
import { CheckCircleFilled, ClockCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, QRCode, Result, Row, Segmented, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import dayjs from '../app/dayjs';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import onlineApply from '../../schemas/resources/online-apply.json';
import { get, post, type ApiError } from '../app/api';
import { useSession } from '../app/session';
import { PAY_CHANNEL_LABELS, PAY_CHANNELS, PAYMENT_API, type PayChannel, type PayOrderInfo } from '../shared/payment';

interface Application {
  id: string;
  status: string;
  applicant: string;
  feeAmount: number | null;
  reliefAmount: number | null;
  payableAmount: number | null;
  receiptNo: string | null;
  orderNo: string | null;
  payChannel: string | null;
  paidAt: string | null;
}

const RECORD_PATH = (id: string) => `/r/${onlineApply.name}/get/${encodeURIComponent(id)}`;
const DETAIL_ROUTE = '/company-service/online-apply-detail';
const PAY_LIST_ROUTE = '/company-service/online-apply-pay';
/** How often the page asks whether the payment has arrived. */
const POLL_MS = 2000;
const PAID_STATES = new Set(['paid', 'inspected']);

const stateLabel = (code: string) => onlineApply.workflow.states.find((s) => s.code === code)?.label ?? code;
const MONEY = new Intl.NumberFormat('zh-CN', { style: 'currency', currency: 'CNY', minimumFractionDigits: 2 });
const yuan = (n: number | null | undefined) => (n === null || n === undefined ? '—' : MONEY.format(n));
const channelLabel = (code: string | null) =>
  code && code in PAY_CHANNEL_LABELS ? PAY_CHANNEL_LABELS[code as PayChannel] : code === 'offline' ? '线下转账' : (code ?? '—');

/** Seconds left until `expiresAt` (0 once past), ticking every second. */
function useSecondsLeft(expiresAt: string | undefined): number {
  const left = () => (expiresAt ? Math.max(0, Math.floor((new Date(expiresAt).getTime() - Date.now()) / 1000)) : 0);
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (!expiresAt) return undefined;
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `left` reads expiresAt only
  }, [expiresAt]);
  return seconds;
}

const clock = (seconds: number) => `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;

function Paid({ application }: { application: Application }) {
  const navigate = useNavigate();
  return (
    <Result
      status="success"
      icon={<CheckCircleFilled />}
      title="已缴费"
      subTitle={`收据编号：${application.receiptNo ?? '—'}`}
      extra={[
        <Button type="primary" key="detail" onClick={() => void navigate(`${DETAIL_ROUTE}?id=${encodeURIComponent(application.id)}`)}>
          查看报检详情
        </Button>,
        <Button key="list" onClick={() => void navigate('/company-service/online-apply')}>
          返回在线报检
        </Button>,
      ]}
    >
      <Descriptions column={1} bordered size="small" style={{ maxWidth: 520, margin: '0 auto' }}>
        <Descriptions.Item label="申请单位">{application.applicant}</Descriptions.Item>
        <Descriptions.Item label="缴费金额">{yuan(application.payableAmount)}</Descriptions.Item>
        <Descriptions.Item label="缴费方式">{channelLabel(application.payChannel)}</Descriptions.Item>
        <Descriptions.Item label="支付订单号">{application.orderNo ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="缴费时间">{application.paidAt ? dayjs(application.paidAt).format('YYYY-MM-DD HH:mm:ss') : '—'}</Descriptions.Item>
        <Descriptions.Item label="收据编号">{application.receiptNo ?? '—'}</Descriptions.Item>
      </Descriptions>
    </Result>
  );
}

function PayPanel({ application }: { application: Application }) {
  const { token } = useSession();
  const [channel, setChannel] = useState<PayChannel>('wechat');
  const order = useSWR<PayOrderInfo, ApiError>(
    ['pay-code:toPay', application.id, channel, token],
    () => post<PayOrderInfo>(PAYMENT_API.toPay(application.id, channel), {}, { silent: true }),
    {
      revalidateOnFocus: false,
      revalidateIfStale: false,
      shouldRetryOnError: false,
    },
  );
  const seconds = useSecondsLeft(order.data?.expiresAt);
  const expired = order.data !== undefined && seconds === 0;

  return (
    <Row gutter={[32, 24]}>
      <Col xs={24} md={10} style={{ textAlign: 'center' }}>
        <Segmented<PayChannel>
          value={channel}
          onChange={setChannel}
          options={PAY_CHANNELS.map((c) => ({ value: c, label: PAY_CHANNEL_LABELS[c] }))}
          style={{ marginBottom: 16 }}
        />
        <div style={{ display: 'flex', justifyContent: 'center' }}>
          {order.error ? (
            <Alert
              type="error"
              showIcon
              message="无法生成支付订单"
              description={order.error.message}
              action={
                <Button size="small" onClick={() => void order.mutate()}>
                  重试
                </Button>
              }
            />
          ) : (
            <QRCode
              value={order.data?.qrContent ?? '-'}
              size={220}
              status={!order.data ? 'loading' : expired ? 'expired' : 'active'}
              onRefresh={() => void order.mutate()}
              aria-label="支付二维码"
            />
          )}
        </div>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          请使用{PAY_CHANNEL_LABELS[channel]}扫描二维码完成缴费
        </Typography.Paragraph>
        {order.data && !expired ? (
          <Space direction="vertical" size={4}>
            <Typography.Text data-testid="pay-countdown">
              <ClockCircleOutlined /> 二维码有效时间剩余 <Typography.Text strong>{clock(seconds)}</Typography.Text>
            </Typography.Text>
            <Typography.Link href={order.data.qrContent} target="_blank" rel="noreferrer">
              模拟支付
            </Typography.Link>
          </Space>
        ) : expired ? (
          <Button icon={<ReloadOutlined />} onClick={() => void order.mutate()}>
            二维码已过期，重新获取
          </Button>
        ) : null}
      </Col>
      <Col xs={24} md={14}>
        <Statistic title="应缴金额" value={application.payableAmount ?? 0} precision={2} prefix="¥" valueStyle={{ color: '#fa541c', fontSize: 36 }} />
        <Descriptions column={1} bordered size="small" style={{ marginTop: 16 }}>
          <Descriptions.Item label="申请单位">{application.applicant}</Descriptions.Item>
          <Descriptions.Item label="检验费合计">{yuan(application.feeAmount)}</Descriptions.Item>
          <Descriptions.Item label="减免金额">{yuan(application.reliefAmount)}</Descriptions.Item>
          <Descriptions.Item label="申请状态">
            <Tag color="orange">{stateLabel(application.status)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="支付订单号">
            {order.data ? <Typography.Text copyable>{order.data.orderNo}</Typography.Text> : <Skeleton.Input size="small" active />}
          </Descriptions.Item>
          <Descriptions.Item label="订单有效期至">{order.data ? dayjs(order.data.expiresAt).format('YYYY-MM-DD HH:mm:ss') : '—'}</Descriptions.Item>
        </Descriptions>
        <Alert
          style={{ marginTop: 16 }}
          type="info"
          showIcon
          message="支付完成后本页将自动显示缴费结果。"
          description="如通过银行转账等线下方式缴费，请在“报检缴费”中上传缴费凭证，由检验机构确认。"
        />
      </Col>
    </Row>
  );
}

export default function PayCodePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { token } = useSession();
  const id = params.get('id');
  const application = useSWR<Application, ApiError>(
    id ? ['pay-code:application', id, token] : null,
    () => get<Application>(RECORD_PATH(id!), { silent: true }),
    {
      // Poll while the payment is awaited; stop once it has arrived (or cannot).
      refreshInterval: (data) => (data && data.status !== 'unpaid' ? 0 : POLL_MS),
    },
  );

  let body: React.ReactNode;
  if (!id) {
    body = (
      <Result
        status="info"
        title="请选择要缴费的报检申请"
        extra={
          <Button type="primary" onClick={() => void navigate(PAY_LIST_ROUTE)}>
            前往报检缴费
          </Button>
        }
      />
    );
  } else if (application.error && !application.data) {
    body = (
      <Result
        status="warning"
        title="无法读取报检申请"
        subTitle={application.error.message}
        extra={<Button onClick={() => void application.mutate()}>重试</Button>}
      />
    );
  } else if (!application.data) {
    body = <Skeleton active paragraph={{ rows: 8 }} />;
  } else if (PAID_STATES.has(application.data.status)) {
    body = <Paid application={application.data} />;
  } else if (application.data.status !== 'unpaid') {
    body = (
      <Result
        status="warning"
        title="当前申请不可缴费"
        subTitle={`申请状态为“${stateLabel(application.data.status)}”，检验机构核定费用后方可缴费`}
        extra={<Button onClick={() => void navigate(`${DETAIL_ROUTE}?id=${encodeURIComponent(application.data!.id)}`)}>查看报检详情</Button>}
      />
    );
  } else {
    body = <PayPanel application={application.data} />;
  }

  return (
    <Card title="扫码支付" variant="borderless">
      {body}
    </Card>
  );
}
