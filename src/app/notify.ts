/**
 * Toasts and dialogs usable outside React (the api client, the error logger). They start as antd's
 * static functions and are upgraded to the themed, locale-aware instances of `<App>` once
 * `NotifyBridge` mounts, so every toast follows the ConfigProvider.
 */
import { message as staticMessage, Modal as StaticModal } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalInstance } from 'antd/es/modal/useModal';

interface Notify {
  message: MessageInstance;
  modal: ModalInstance;
}

export const notify: Notify = {
  message: staticMessage,
  modal: StaticModal as unknown as ModalInstance,
};

export function bindNotify(instances: Notify): void {
  notify.message = instances.message;
  notify.modal = instances.modal;
}
