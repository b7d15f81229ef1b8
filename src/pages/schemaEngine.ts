/**
 * What the app gives the schema engine: its data transport over the one api module (silent,
 * because the engine shows its own messages) and where each screen lives in the menu.
 */
import { apiUrl, get, post, postFile } from '../app/api';
import { shellEntries } from '../app/routes';
import { createRestDataProvider } from '../engine';
import { ATTACHMENT_ROUTES } from '../shared/contract';

export const dataProvider = createRestDataProvider(
  {
    get: (path, signal) => get(path, { silent: true, signal }),
    post: (path, body, signal) => post(path, body, { silent: true, signal }),
    postFile: (path, fields, options) => postFile(path, fields, { silent: true, ...options }),
    url: apiUrl,
  },
  { uploadPath: ATTACHMENT_ROUTES.upload },
);

const screenPaths = new Map(shellEntries.filter((e) => e.screen).map((e) => [e.screen!, e.fullPath]));
export const screenPath = (id: string): string | undefined => screenPaths.get(id);
