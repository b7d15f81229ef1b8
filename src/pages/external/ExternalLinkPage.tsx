/**
 * A menu entry that is an external link (href, or hrefSetting: a link of the server configuration),
 * opened by its address instead of from the menu: opens the link as the menu does (a new window; a
 * link carrying the user's identity gets a single-use token from the server, never the session);
 * says so plainly when the link is not configured (the menu hides the entry then).
 */
import { ExportOutlined } from '@ant-design/icons';
import { Button, Card, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { loadAppConfig } from '../../app/config';
import { openExternal } from '../../app/external-link';
import { externalTarget } from '../../app/menu';
import { useSession } from '../../app/session';
import type { AppConfig } from '../../shared/contract';
import type { PageProps } from '../types';

export default function ExternalLinkPage({ entry }: PageProps) {
  const navigate = useNavigate();
  const { user } = useSession();
  const [config, setConfig] = useState<AppConfig | null>(null);
  useEffect(() => {
    let live = true;
    void loadAppConfig().then((c) => live && setConfig(c));
    return () => {
      live = false;
    };
  }, []);
  if (!config) return <Spin delay={200} size="large" style={{ display: 'block', padding: '20vh 0' }} />;

  const target = externalTarget(entry, config.links, user?.id);
  const home = (
    <Button key="home" onClick={() => void navigate('/home')}>
      返回首页
    </Button>
  );
  return (
    <Card variant="borderless">
      {target ? (
        <Result
          icon={<ExportOutlined style={{ color: '#1677ff' }} />}
          title={entry.title}
          subTitle={
            entry.hrefAppend
              ? '该服务由外部业务系统提供，将在新窗口中打开，并以一次性凭证向其证明您的身份（不会交出您的登录信息）。'
              : '该服务由外部业务系统提供，将在新窗口中打开。'
          }
          extra={[
            <Button key="open" type="primary" icon={<ExportOutlined />} onClick={() => openExternal(target)}>
              {`打开${entry.title}`}
            </Button>,
            home,
          ]}
        />
      ) : (
        <Result
          status="warning"
          title={`${entry.title}服务未配置`}
          subTitle="该服务的外部系统地址尚未配置，暂时无法使用。请联系平台管理员配置后再试。"
          extra={[home]}
        />
      )}
    </Card>
  );
}
