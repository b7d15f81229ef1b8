/**
 * Hand-written pages by the name `page` uses in schemas/menu.json. Each is its own chunk, so the
 * login page loads neither the shell nor the form engine. A route with neither `page` nor `screen`
 * shows the 建设中 placeholder.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { RouteEntry } from '../app/menu';
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
  AccountManager: lazy(() => import('./accounts/AccountManagerPage')),
  AccountDetail: lazy(() => import('./accounts/AccountDetailPage')),
  AccountAdd: lazy(() => import('./accounts/AccountAddPage')),
  FlowLogSingle: lazy(() => import('./public/FlowLogSinglePage')),
  MobileUpload: lazy(() => import('./public/MobileUploadPage')),
  Dlgzh: lazy(() => import('./public/declaration/DlgzhPage')),
  DlgzhList: lazy(() => import('./public/declaration/DlgzhListPage')),
  DlgzhDetail: lazy(() => import('./public/declaration/DlgzhDetailPage')),
  Register: lazy(() => import('./account-apply/RegisterPage')),
  RegisterSuccess: lazy(() => import('./account-apply/Done').then((m) => ({ default: m.RegisterSuccess }))),
  RegisterQuery: lazy(() => import('./account-apply/RegisterQueryPage')),
  ResetPassword: lazy(() => import('./account-apply/ResetPasswordPage')),
  ResetSuccess: lazy(() => import('./account-apply/Done').then((m) => ({ default: m.ResetSuccess }))),
  DocumentVerify: lazy(() => import('./verify/DocumentVerifyPage')),
};

/** Leaves with `"screen"`: rendered by the schema engine (its own chunk, with Formily). */
const SchemaPage = lazy(() => import('./SchemaPage'));
/** Routes not built yet (its own chunk: antd's Card and Result stay out of the login page). */
const UnderConstruction = lazy(() => import('./placeholder/UnderConstruction'));

/** The component of a route: a hand-written page, a schema screen, or the 建设中 placeholder. */
export function pageFor(entry: RouteEntry): Page {
  if (entry.page && PAGES[entry.page]) return PAGES[entry.page];
  return entry.screen ? SchemaPage : UnderConstruction;
}
