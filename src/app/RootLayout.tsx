import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router-dom';
import { useAppConfig } from './config';
import type { RouteHandle } from './routes';

NProgress.configure({ showSpinner: false });

/** Progress bar while navigating, document title, scroll to top (SPEC.md §2). */
export default function RootLayout() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const matches = useMatches();
  const { productName } = useAppConfig();
  const title = (matches.at(-1)?.handle as RouteHandle | undefined)?.entry.title;

  useEffect(() => {
    if (navigation.state === 'idle') NProgress.done();
    else NProgress.start();
  }, [navigation.state]);

  useEffect(() => {
    document.title = title ? `${productName} - ${title}` : productName;
  }, [productName, title]);

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  return <Outlet />;
}
