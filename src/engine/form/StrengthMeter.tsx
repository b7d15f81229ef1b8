/**
 * Live strength meter for a new-password field: four steps from the catalogue's strength score
 * (SPEC.md §5), with 弱 / 中 / 强 below the simple-password threshold and above it.
 */
import { Progress, Typography } from 'antd';
import { passwordStrength, SIMPLE_PASSWORD_THRESHOLD } from '../../../validators';

const COLORS = ['#ff4d4f', '#ff4d4f', '#faad14', '#52c41a', '#389e0d'];

export function strengthLabel(score: number): string {
  if (score < SIMPLE_PASSWORD_THRESHOLD) return '弱';
  return score === SIMPLE_PASSWORD_THRESHOLD ? '中' : '强';
}

export default function StrengthMeter({ value }: { value?: string | null }) {
  const score = passwordStrength(value ?? '');
  return (
    <div className="strength-meter" data-score={score} aria-live="polite" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <Progress steps={4} percent={score * 25} showInfo={false} strokeColor={COLORS[score]} size={[36, 6]} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        密码强度：{value ? strengthLabel(score) : '—'}
      </Typography.Text>
    </div>
  );
}
