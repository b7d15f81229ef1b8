/**
 * What the app gives the schema engine: its data transport over the one api module (silent,
 * because the engine shows its own messages) and where each screen lives in the menu.
 */
import { apiUrl, get, post, postFile } from '../app/api';
import { shellEntries } from '../app/routes';
import { createRestDataProvider } from '../engine';

export const dataProvider = createRestDataProvider({
  get: (path, signal) => get(path, { silent: true, signal }),
  post: (path, body, signal) => post(path, body, { silent: true, signal }),
  postFile: (path, fields, signal) => postFile(path, fields, { silent: true, signal }),
  url: apiUrl,
});

const screenPaths = new Map(shellEntries.filter((e) => e.screen).map((e) => [e.screen!, e.fullPath]));
export const screenPath = (id: string): string | undefined => screenPaths.get(id);
