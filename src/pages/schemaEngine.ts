/**
 * What the app gives the schema engine: its data transport over the one api module (silent,
 * because the engine shows its own messages) and where each screen lives in the menu.
 */
import { apiUrl, get, post, postFile } from '../app/api';
import { publicEntries, shellEntries } from '../app/routes';
import { createRestDataProvider } from '../engine';
import { ACCOUNT_API } from '../shared/accounts';
import { ATTACHMENT_ROUTES } from '../shared/contract';

/** The phone page a QR code of an attachment field opens (schemas/menu.json, outside the shell). */
const MOBILE_UPLOAD_ROUTE = '/attachmentUploadMobile';

export const dataProvider = createRestDataProvider(
  {
    get: (path, signal) => get(path, { silent: true, signal }),
    post: (path, body, signal) => post(path, body, { silent: true, signal }),
    postFile: (path, fields, options) => postFile(path, fields, { silent: true, ...options }),
    url: apiUrl,
  },
  {
    uploadPath: ATTACHMENT_ROUTES.upload,
    mobileUpload: {
      tokenPath: ACCOUNT_API.mobileToken,
      statePath: ACCOUNT_API.mobileTokenFiles,
      pageUrl: (token) => `${window.location.origin}${MOBILE_UPLOAD_ROUTE}?token=${encodeURIComponent(token)}`,
    },
  },
);

/**
 * The transport of open forms (public routes, no session): the same api module, attachments
 * uploaded through the visitors' upload route (claimed by the application they are filed with),
 * no phone upload.
 */
export const openDataProvider = createRestDataProvider(
  {
    get: (path, signal) => get(path, { silent: true, signal }),
    post: (path, body, signal) => post(path, body, { silent: true, signal }),
    postFile: (path, fields, options) => postFile(path, fields, { silent: true, ...options }),
    url: apiUrl,
  },
  { uploadPath: ATTACHMENT_ROUTES.visitorUpload },
);

const screenPaths = new Map(shellEntries.filter((e) => e.screen).map((e) => [e.screen!, e.fullPath]));
export const screenPath = (id: string): string | undefined => screenPaths.get(id);

/** Where the screens of open routes live (an open list's rows open an open detail). */
const openScreenPaths = new Map(publicEntries.filter((e) => e.screen).map((e) => [e.screen!, e.fullPath]));
export const openScreenPath = (id: string): string | undefined => openScreenPaths.get(id);
