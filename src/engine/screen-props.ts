import type { ScreenBundle } from './registry/registry';
import type { EditMode } from '../schema/types';

/** What every screen component receives from `SchemaScreen`. */
export interface ScreenComponentProps {
  bundle: ScreenBundle;
  mode: EditMode;
  /** Initial values of a new record: from the route (form `prefill`) and from the host page (`SchemaScreen` `prefill`). */
  prefill?: Record<string, unknown>;
  /** Shown inside a host page: without the screen's own page chrome (an open form: no backdrop, card, title or links). */
  embedded?: boolean;
  /** Record id (edit, view, detail). */
  id?: string;
  /** Called after a successful submit and by the back button; default: history back. */
  onClose?: () => void;
  /** Reports whether the form holds unsaved input (for the tab bar's before-close question). */
  onDirtyChange?: (dirty: boolean) => void;
}
