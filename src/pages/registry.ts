/**
 * Hand-written pages by the name `page` uses in schemas/menu.json. Each is its own chunk, so the
 * login page loads neither the shell nor the form engine. A route that is an external link (href,
 * hrefSetting) shows the page leading to it; every other route names a page or a screen
 * (tests/unit/menu-links.test.ts), and one naming neither would be 404.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { isExternal, type RouteEntry } from '../app/menu';
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
  FlowLogSingle: lazy(() => import('./public/FlowLogSinglePage')),
  MobileUpload: lazy(() => import('./public/MobileUploadPage')),
  RegisterSuccess: lazy(() => import('./account-apply/Done').then((m) => ({ default: m.RegisterSuccess }))),
  ResetSuccess: lazy(() => import('./account-apply/Done').then((m) => ({ default: m.ResetSuccess }))),
  DocumentVerify: lazy(() => import('./verify/DocumentVerifyPage')),
  InspectionResults: lazy(() => import('./public/inspection-results/InspectionResultsPage')),
};

/** Leaves with `"screen"`: rendered by the schema engine (its own chunk, with Formily). */
const SchemaPage = lazy(() => import('./SchemaPage'));
/** Screens of public routes (open forms): the engine without a session (its own chunk too). */
const OpenSchemaPage = lazy(() => import('./OpenSchemaPage'));
/** External links opened by their address (its own chunk: antd's Card and Result stay out of the login page). */
const ExternalLink = lazy(() => import('./external/ExternalLinkPage'));

/** The component of a route: a hand-written page, a schema screen, the page of an external link, else 404. */
export function pageFor(entry: RouteEntry, open = false): Page {
  if (entry.page && PAGES[entry.page]) return PAGES[entry.page];
  // A public route's screen (an open form) renders without a session.
  if (entry.screen) return open ? OpenSchemaPage : SchemaPage;
  return isExternal(entry) ? ExternalLink : PAGES.Error404;
}
