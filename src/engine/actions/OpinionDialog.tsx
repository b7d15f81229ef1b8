import { Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';

export const OPINION_MAX_LENGTH = 2000;

interface OpinionDialogProps {
  open: boolean;
  title: string;
  required: boolean;
  onOk: (opinion: string) => void;
  onCancel: () => void;
}

/** Asks for an audit opinion (required or optional) before a workflow action. */
export default function OpinionDialog({ open, title, required, onOk, onCancel }: OpinionDialogProps) {
  const [opinion, setOpinion] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (open) {
      setOpinion('');
      setTouched(false);
    }
  }, [open]);
  const missing = required && opinion.trim() === '';
  return (
    <Modal
      open={open}
      title={title}
      okText="确定"
      cancelText="取消"
      destroyOnHidden
      onCancel={onCancel}
      onOk={() => {
        setTouched(true);
        if (!missing) onOk(opinion.trim());
      }}
    >
      <Form layout="vertical">
        <Form.Item
          label="审核意见"
          required={required}
          validateStatus={touched && missing ? 'error' : undefined}
          help={touched && missing ? '请填写审核意见' : undefined}
        >
          <Input.TextArea
            autoFocus
            rows={4}
            maxLength={OPINION_MAX_LENGTH}
            showCount
            value={opinion}
            onChange={(e) => setOpinion(e.target.value)}
            placeholder={required ? '请输入审核意见' : '请输入审核意见（选填）'}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
