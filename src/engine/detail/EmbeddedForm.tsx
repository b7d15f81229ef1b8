/**
 * A detail's `embed`: an open form below the record (e.g. the correction of a returned
 * application), prefilled with the record's values and those the proof form posted; the open form
 * posts every prefilled value, shown or not (the record's id, the proof's code).
 */
import { useMemo } from 'react';
import { useScreenBundle } from '../data/hooks';
import type { RecordData } from '../data/provider';
import OpenFormScreen from '../open/OpenFormScreen';
import { useProof } from '../open/proof';
import { LoadFailed, LoadingBlock } from '../ui';

export default function EmbeddedForm({ screenId, record }: { screenId: string; record: RecordData }) {
  const proof = useProof();
  const { data: bundle, error, mutate } = useScreenBundle(screenId);
  const prefill = useMemo(() => ({ ...record, ...proof?.values }), [record, proof?.values]);
  if (error) return <LoadFailed error={error} onRetry={() => void mutate()} />;
  if (!bundle) return <LoadingBlock rows={6} />;
  return <OpenFormScreen bundle={bundle} mode="add" prefill={prefill} embedded />;
}
