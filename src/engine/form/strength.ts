/**
 * Password strength as the meter shows it: the catalogue's score (0–4, validators/password.ts)
 * as a level. Below the simple-password threshold is 弱, at it 中, above it 强.
 */
import { passwordStrength, SIMPLE_PASSWORD_THRESHOLD } from '../../../validators';

export type StrengthLevel = 'weak' | 'medium' | 'strong';

export const STRENGTH_LABELS: Readonly<Record<StrengthLevel, string>> = { weak: '弱', medium: '中', strong: '强' };
export const STRENGTH_COLORS: Readonly<Record<StrengthLevel, string>> = { weak: '#ff4d4f', medium: '#faad14', strong: '#52c41a' };

export function strengthLevel(score: number): StrengthLevel {
  if (score < SIMPLE_PASSWORD_THRESHOLD) return 'weak';
  return score === SIMPLE_PASSWORD_THRESHOLD ? 'medium' : 'strong';
}

export function strengthLabel(score: number): string {
  return STRENGTH_LABELS[strengthLevel(score)];
}

/** What the meter shows for a value: the score, the filled share of the bar, label and colour (none when empty). */
export function describeStrength(value: string | null | undefined): { score: number; percent: number; label?: string; color: string } {
  const score = passwordStrength(value ?? '');
  const level = strengthLevel(score);
  return { score, percent: score * 25, label: value ? STRENGTH_LABELS[level] : undefined, color: STRENGTH_COLORS[level] };
}
