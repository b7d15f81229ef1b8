/**
 * Toasts and dialogs: the themed instances of antd's `<App>` when the app provides one, else
 * antd's static functions (tests, harnesses).
 */
import { App, message as staticMessage, Modal } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalInstance } from 'antd/es/modal/useModal';

export interface Feedback {
  message: MessageInstance;
  modal: ModalInstance;
}

export function useFeedback(): Feedback {
  const app = App.useApp();
  return typeof app.modal?.confirm === 'function' && typeof app.message?.success === 'function'
    ? { message: app.message, modal: app.modal }
    : { message: staticMessage, modal: Modal as unknown as ModalInstance };
}

/** Asks a yes/no question; resolves true on OK. */
export function confirm(feedback: Feedback, content: string, danger = false): Promise<boolean> {
  return new Promise((resolve) => {
    feedback.modal.confirm({
      title: '提示',
      content,
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger },
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}
