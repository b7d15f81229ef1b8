/**
 * The data router (history mode) built from schemas/menu.json: public routes without the shell,
 * shell routes inside it, each guarded by a loader (guards.ts) and rendered by its page.
 */
import { Spin } from 'antd';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router-dom';
import { pageFor } from '../pages/registry';
import PageHost from './PageHost';
import { publicLoader, shellLoader } from './guards';
import type { RouteEntry } from './menu';
import { bindRouter } from './navigation';
import RootLayout from './RootLayout';
import RouteError from './RouteError';
import { HOME_PATH, publicEntries, shellEntries, type RouteHandle } from './routes';

function leaf(entry: RouteEntry, loader: RouteObject['loader'], open = false): RouteObject {
  const handle: RouteHandle = { entry };
  return { path: entry.fullPath, loader, handle, element: <PageHost entry={entry} page={pageFor(entry, open)} />, errorElement: <RouteError /> };
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <Spin size="large" fullscreen />,
    children: [
      { index: true, loader: () => redirect(HOME_PATH) },
      // The catch-all (error_404) is one of them: an unknown address shows the 404 page to everyone.
      ...publicEntries.map((e) => leaf(e, publicLoader(e), true)),
      {
        lazy: () => import('../shell/ShellLayout').then((m) => ({ Component: m.default })),
        children: shellEntries.map((e) => leaf(e, shellLoader(e))),
      },
    ],
  },
];

export function createRouter() {
  const router = createBrowserRouter(routes);
  bindRouter(router);
  return router;
}
