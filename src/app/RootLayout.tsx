import 'nprogress/nprogress.css';
import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router-dom';
import { useAppConfig } from './config';
import type { RouteHandle } from './routes';

type NProgress = typeof import('nprogress');
/** The bar's code, loaded by the first navigation: a page that is only shown (login) does not download it (issue 18). */
let bar: Promise<NProgress> | null = null;
const loadBar = (): Promise<NProgress> =>
  (bar ??= import('nprogress').then(({ default: nprogress }) => {
    nprogress.configure({ showSpinner: false });
    return nprogress;
  }));

/** Progress bar while navigating, document title, scroll to top (SPEC.md §2). */
export default function RootLayout() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const matches = useMatches();
  const { productName } = useAppConfig();
  const title = (matches.at(-1)?.handle as RouteHandle | undefined)?.entry.title;

  useEffect(() => {
    // Callbacks on one promise run in order: a start is never overtaken by the done after it.
    if (navigation.state !== 'idle') void loadBar().then((nprogress) => nprogress.start());
    else if (bar) void bar.then((nprogress) => nprogress.done());
  }, [navigation.state]);

  useEffect(() => {
    document.title = title ? `${productName} - ${title}` : productName;
  }, [productName, title]);

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  return <Outlet />;
}
