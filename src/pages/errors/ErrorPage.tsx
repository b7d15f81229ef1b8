import { Button, Result } from 'antd';
import type { ResultStatusType } from 'antd/es/result';
import { useNavigate } from 'react-router-dom';
import './errors.css';

interface ErrorPageProps {
  status: ResultStatusType;
  title: string;
  subTitle: string;
}

/** Full-page error result with a way back home. */
export default function ErrorPage({ status, title, subTitle }: ErrorPageProps) {
  const navigate = useNavigate();
  return (
    <div className="error-page">
      <Result
        status={status}
        title={title}
        subTitle={subTitle}
        extra={[
          <Button key="home" type="primary" onClick={() => navigate('/home', { replace: true })}>
            返回首页
          </Button>,
          <Button key="back" onClick={() => navigate(-1)}>
            返回上一页
          </Button>,
        ]}
      />
    </div>
  );
}
