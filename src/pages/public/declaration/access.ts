/** The proved mobile's access to its declarations, kept for the browser tab (sessionStorage). */
import type { DeclarationAccess } from '../../../shared/declaration';

/** Also `submit.keep` of schemas/screens/dlgzh-form.json: filing a declaration keeps its reply (the access) here. */
const KEY = 'portal.dlgzh.access';

export function loadAccess(): DeclarationAccess | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as DeclarationAccess | null;
    return value?.access ? value : null;
  } catch {
    return null;
  }
}

export function saveAccess(access: DeclarationAccess): void {
  sessionStorage.setItem(KEY, JSON.stringify(access));
}

export function clearAccess(): void {
  sessionStorage.removeItem(KEY);
}
