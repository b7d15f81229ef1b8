/**
 * Hand-written pages by the name `page` uses in schemas/menu.json. Each is its own chunk, so the
 * login page loads neither the shell nor the form engine. A route with neither `page` nor `screen`
 * shows the 建设中 placeholder.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { RouteEntry } from '../app/menu';
import UnderConstruction from './placeholder/UnderConstruction';
import type { PageProps } from './types';

type Page = LazyExoticComponent<ComponentType<PageProps>> | ComponentType<PageProps>;

export const PAGES: Record<string, Page> = {
  Login: lazy(() => import('./login/LoginPage')),
  SsoLogin: lazy(() => import('./login/SsoLoginPage')),
  YnSsoLogin: lazy(() => import('./login/YnSsoLoginPage')),
  Home: lazy(() => import('./home/HomePage')),
  Error401: lazy(() => import('./errors/Error401')),
  Error404: lazy(() => import('./errors/Error404')),
  Error500: lazy(() => import('./errors/Error500')),
  Playground: lazy(() => import('./dev/PlaygroundPage')),
  PayCode: lazy(() => import('./PayCode')),
};

/** Leaves with `"screen"`: rendered by the schema engine (its own chunk, with Formily). */
const SchemaPage = lazy(() => import('./SchemaPage'));

/** The component of a route: a hand-written page, a schema screen, or the 建设中 placeholder. */
export function pageFor(entry: RouteEntry): Page {
  if (entry.page && PAGES[entry.page]) return PAGES[entry.page];
  return entry.screen ? SchemaPage : UnderConstruction;
}
