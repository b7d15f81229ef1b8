import ErrorPage from './ErrorPage';

export default function Error401() {
  return <ErrorPage status="403" title="401" subTitle="抱歉，您没有权限访问该页面，请联系管理员或切换角色后再试。" />;
}
