import 'nprogress/nprogress.css';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router-dom';
import { useAppConfig } from './config';
import { documentTitle } from './menu';
import { hold, navigationStarted } from './progress';
import type { RouteHandle } from './routes';

/** Progress bar while navigating (progress.ts), document title, scroll to top. */
export default function RootLayout() {
  const navigation = useNavigation();
  const { pathname, search, key } = useLocation();
  const matches = useMatches();
  const { productName } = useAppConfig();
  const title = (matches.at(-1)?.handle as RouteHandle | undefined)?.entry.title;

  // The route's loaders (access checks, the profile) hold the bar while they run.
  const loading = navigation.state !== 'idle';
  useEffect(() => (loading ? hold() : undefined), [loading]);

  // A new address (a menu click, a tab, a link) starts the bar; the page's code and first reads
  // then hold it. Not the address the app opened with: a page only shown (login) loads no bar.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else navigationStarted();
  }, [key]);

  useEffect(() => {
    document.title = documentTitle(productName, title, search);
  }, [productName, title, search]);

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  return <Outlet />;
}
