/**
 * A form screen in a dialog over a list (a button's `formDialog`): a new record (the toolbar's
 * add) or the row's (a row button), titled 新增 / 编辑 and the form's title. The form's 返回 and
 * its save close the dialog; the list reloads when it closes.
 */
import { Modal } from 'antd';
import { useScreenBundle } from '../data/hooks';
import FormScreen, { MODE_TITLES } from '../form/FormScreen';
import { LoadFailed, LoadingBlock } from '../ui';

export interface FormDialogTarget {
  screen: string;
  /** The row's id; none: a new record. */
  id?: string;
}

/** The dialog's title: 新增 / 编辑 and the form's title. */
export const formDialogTitle = (title: string | undefined, id: string | undefined): string => `${MODE_TITLES[id ? 'edit' : 'add']}${title ?? ''}`;

export default function FormDialog({ target, onClose }: { target: FormDialogTarget; onClose(): void }) {
  const { data: bundle, error, mutate } = useScreenBundle(target.screen);
  return (
    <Modal open title={formDialogTitle(bundle?.screen.title, target.id)} footer={null} width={760} destroyOnHidden onCancel={onClose}>
      {error ? (
        <LoadFailed error={error} onRetry={() => void mutate()} />
      ) : bundle ? (
        // A shell form (lint: not an open form), rendered as the router would, without its card.
        <FormScreen bundle={bundle} mode={target.id ? 'edit' : 'add'} id={target.id} embedded onClose={onClose} />
      ) : (
        <LoadingBlock />
      )}
    </Modal>
  );
}
