/** The fixed first tab of a session. */
import { homePathFor, menuFor } from '../app/home';
import type { MenuItem } from '../app/menu';
import { homeEntry, shellEntries } from '../app/routes';
import type { SessionState } from '../app/session';
import { tabFor, type Tab } from './tabs/model';

export function homeTabFor(s: SessionState, menu: readonly MenuItem[] = menuFor(s)): Tab {
  const path = homePathFor(s, menu);
  const entry = shellEntries.find((e) => e.fullPath === path) ?? homeEntry;
  return tabFor(entry, entry.fullPath);
}
