/**
 * Opens an external item (menu.ts `externalTarget`) in a new window. A link that carries the user's
 * identity opens its window at once, inside the click (a window opened after waiting for the server
 * is a blocked popup), cut from the portal (`opener` null), showing a short wait text; then the
 * server's answer (the outside address with a single-use token) replaces its location. A failure
 * closes it again; the api client has shown the server's message.
 */
import { LINK_API, type LinkAddress } from '../shared/external-link';
import { post } from './api';
import type { ExternalTarget } from './menu';

export const OPENING_TEXT = '正在打开外部服务，请稍候…';

export function openExternal(target: ExternalTarget): void {
  if ('url' in target) {
    window.open(target.url, '_blank', 'noopener');
    return;
  }
  const tab = window.open('', '_blank');
  if (tab) {
    tab.opener = null;
    tab.document.title = OPENING_TEXT;
    const { body } = tab.document;
    if (body) {
      body.textContent = OPENING_TEXT;
      body.style.cssText = 'margin:0;height:100vh;display:flex;align-items:center;justify-content:center;font:14px sans-serif;color:#595959';
    }
  }
  void post<LinkAddress>(LINK_API.token, { name: target.link }).then(
    ({ url }) => {
      if (tab && !tab.closed) tab.location.replace(url);
      else window.open(url, '_blank', 'noopener');
    },
    () => tab?.close(),
  );
}
