/**
 * Dialogs a list opens by name (a toolbar `add` or a row button with `dialog`): the app registers
 * the few forms that cannot be data yet under a name, and a list screen opens one for a new row (no
 * id) or for a row. The dialog reports a save, and the list reloads.
 */
import type { ComponentType } from 'react';

export interface ListDialogProps {
  /** The row's id; absent: a new row. */
  id?: string;
  /** Closes the dialog without a change. */
  onClose(): void;
  /** Closes the dialog after a save: the list reloads. */
  onSaved(): void;
}

const dialogs = new Map<string, ComponentType<ListDialogProps>>();

/** Registers a dialog under the name screens use in `dialog`. */
export function registerListDialog(name: string, component: ComponentType<ListDialogProps>): void {
  dialogs.set(name, component);
}

export const listDialog = (name: string): ComponentType<ListDialogProps> | undefined => dialogs.get(name);
