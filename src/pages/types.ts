import type { RouteEntry } from '../app/menu';

/** Props every routed page receives: its entry of schemas/menu.json. */
export interface PageProps {
  entry: RouteEntry;
}
