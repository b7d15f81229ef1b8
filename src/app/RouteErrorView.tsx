import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';

/** The error page of RouteError: its own chunk, so antd's Result illustrations stay out of the login page. */
export default function RouteErrorView({ notFound }: { notFound: boolean }) {
  const navigate = useNavigate();
  return (
    <Result
      status={notFound ? '404' : '500'}
      title={notFound ? '页面不存在' : '页面出错了'}
      subTitle={notFound ? '抱歉，您访问的页面不存在。' : '页面运行出现异常，错误已自动上报，请刷新后重试。'}
      extra={[
        <Button key="reload" type="primary" onClick={() => window.location.reload()}>
          刷新页面
        </Button>,
        <Button key="home" onClick={() => navigate('/home')}>
          返回首页
        </Button>,
      ]}
    />
  );
}
