import { App as AntdApp, ConfigProvider } from 'antd';
// The es build of the locale: through Vite the CJS entry loses the DatePicker texts (https://github.com/ant-design/ant-design/issues/40075).
import zhCN from 'antd/es/locale/zh_CN';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router-dom';
import { SWRConfig, type Middleware } from 'swr';
import { bindNotify } from './notify';
import { trackRequest } from './progress';
import { createRouter } from './router';
import { THEME } from './theme';

/** Routes the api module's toasts and dialogs through the themed `<App>` instances. */
function NotifyBridge() {
  const { message, modal } = AntdApp.useApp();
  useEffect(() => bindNotify({ message, modal }), [message, modal]);
  return null;
}

// Outside antd's components (the navigation progress bar, global.css) the primary colour is this variable.
document.documentElement.style.setProperty('--portal-color-primary', THEME.token.colorPrimary);

/**
 * Every read a page makes through SWR (the api's, the engine's lists and screen definitions) holds
 * the navigation progress bar while the page settles, so the bar covers a page's first data even
 * when they come in steps (the screen's definition, then its rows).
 */
const trackReads: Middleware = (useSWRNext) => (key, fetcher, config) => {
  const tracked = fetcher && (((...args: unknown[]) => trackRequest(Promise.resolve(fetcher(...args)))) as typeof fetcher);
  return useSWRNext(key, tracked, config);
};

/** One router per page life, created outside React (StrictMode would build two in development). */
const router = createRouter();

export default function App() {
  return (
    <ConfigProvider locale={zhCN} theme={THEME}>
      <AntdApp>
        <NotifyBridge />
        <SWRConfig value={{ revalidateOnFocus: false, shouldRetryOnError: false, use: [trackReads] }}>
          <RouterProvider router={router} />
        </SWRConfig>
      </AntdApp>
    </ConfigProvider>
  );
}
