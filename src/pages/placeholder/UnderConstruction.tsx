import { ToolOutlined } from '@ant-design/icons';
import { Button, Card, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { PageProps } from '../types';

/** A route whose screen is not built yet: says so clearly instead of a blank page. */
export default function UnderConstruction({ entry }: PageProps) {
  const navigate = useNavigate();
  return (
    <Card variant="borderless">
      <Result
        icon={<ToolOutlined style={{ color: '#1677ff' }} />}
        title={`${entry.title} · 建设中`}
        subTitle="该功能页面正在建设中，敬请期待。如需办理相关业务，请联系技术支持。"
        extra={
          <Button type="primary" onClick={() => navigate('/home')}>
            返回首页
          </Button>
        }
      />
    </Card>
  );
}
