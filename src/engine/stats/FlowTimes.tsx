/** A stats screen's `flowTimes` table (being built in this change; wired into StatsScreen). */
import type { StatsFlowTimes } from '../../schema/generated/screen';

export default function FlowTimesCard({ flowTimes }: { flowTimes: StatsFlowTimes }) {
  return <div data-flow-times={flowTimes.resources.join(',')} />;
}
