import ErrorPage from './ErrorPage';

export default function Error404() {
  return <ErrorPage status="404" title="404" subTitle="抱歉，您访问的页面不存在。" />;
}
