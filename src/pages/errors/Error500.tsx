import ErrorPage from './ErrorPage';

export default function Error500() {
  return <ErrorPage status="500" title="500" subTitle="抱歉，服务器出错了，请稍后再试。" />;
}
