import { lazy, Suspense, useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { reportError } from './errorLogger';

/** Without its chunk (a deploy replaced it, the network dropped) the page still says what to do. */
function PlainErrorView({ notFound }: { notFound: boolean }) {
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center' }}>
      <h3>{notFound ? '页面不存在' : '页面出错了'}</h3>
      <p>{notFound ? '抱歉，您访问的页面不存在。' : '页面运行出现异常，错误已自动上报，请刷新后重试。'}</p>
      <button type="button" onClick={() => window.location.reload()}>
        刷新页面
      </button>
    </div>
  );
}

const RouteErrorView = lazy(() => import('./RouteErrorView').catch(() => ({ default: PlainErrorView })));

/** Error element of every route: reports the render error and offers a way out. */
export default function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;

  useEffect(() => {
    if (!notFound) reportError(error);
  }, [error, notFound]);

  return (
    <Suspense fallback={null}>
      <RouteErrorView notFound={notFound} />
    </Suspense>
  );
}
