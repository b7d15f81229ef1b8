/**
 * Live strength meter for a new-password field: four steps filled by the catalogue's strength
 * score (the password rule), labelled 弱 / 中 / 强 (./strength.ts). Put it under the field, e.g. as the
 * form item's extra line, and pass the field's current value.
 */
import { Progress, Typography } from 'antd';
import { describeStrength } from './strength';

export { strengthLabel } from './strength';

export default function StrengthMeter({ value }: { value?: string | null }) {
  const { score, percent, label, color } = describeStrength(value);
  return (
    <div className="strength-meter" data-score={score} aria-live="polite" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <Progress steps={4} percent={percent} showInfo={false} strokeColor={color} size={[36, 6]} aria-hidden />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        密码强度：{label ?? '—'}
      </Typography.Text>
    </div>
  );
}
