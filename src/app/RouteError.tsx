import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router-dom';
import { reportError } from './errorLogger';

/** Error element of every route: reports the render error and offers a way out. */
export default function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const notFound = isRouteErrorResponse(error) && error.status === 404;

  useEffect(() => {
    if (!notFound) reportError(error);
  }, [error, notFound]);

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
