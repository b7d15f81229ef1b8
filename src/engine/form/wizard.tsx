import { createContext, useContext, type ReactNode } from 'react';

/** The step a wizard shows; other steps stay mounted (their input is kept) but hidden. */
export const WizardStepContext = createContext<number | null>(null);

/** The body of one wizard step (compiled as `x-component: WizardStep` with its index). */
export function WizardStep({ index, children }: { index?: number; title?: string; children?: ReactNode }) {
  const current = useContext(WizardStepContext);
  return (
    <div className="engine-wizard-step" hidden={current !== null && index !== current}>
      {children}
    </div>
  );
}
