/**
 * Use registration and change registration (schemas/resources/use-regist-apply.json,
 * use-change-apply.json): the certificate issued on approval, approved changes applied to the
 * equipment (a change of using unit once the receiving unit accepted it: transfer.ts), and the second legacy path set of the applications (epPemUseregistApply; the first,
 * useManage, is the resource's own `api`).
 */
import { legacyRoute } from '../../legacy/table';
import type { DomainFeature } from '../feature';
import './errors';
import { applyUseChange, issueUseCertificate } from './hooks';
import { seedUseRegistrations } from './seed';
import { acceptTransfer, openTransfer, refuseTransfer, resolveReceiver, withdrawTransfer } from './transfer';

const APPLY = 'use-regist-apply';

export const useRegistrationFeature: DomainFeature = {
  name: 'use-registration',
  hooks: {
    'use-registration-certificate': issueUseCertificate,
    'use-change-apply': applyUseChange,
    'use-change-receiver': resolveReceiver,
    'use-change-transfer-open': openTransfer,
    'use-change-transfer-withdraw': withdrawTransfer,
    'use-transfer-accept': acceptTransfer,
    'use-transfer-refuse': refuseTransfer,
  },
  legacy: [
    legacyRoute('/a/stone/epPemUseregistApply/list', APPLY, 'list'),
    legacyRoute('/a/stone/epPemUseregistApply/save', APPLY, 'save'),
    legacyRoute('/a/stone/epPemUseregistApply/commit', APPLY, 'commit'),
    legacyRoute('/a/stone/epPemUseregistApply/delete', APPLY, 'delete'),
    legacyRoute('/a/stone/epPemUseregistApply/processSteps', APPLY, 'flowLog'),
    legacyRoute('/a/stone/epPemUseregistApply/detail', APPLY, 'get'),
    legacyRoute('/a/stone/epPemUseregistApply/attachments', APPLY, 'attachments'),
  ],
  seed: seedUseRegistrations,
};
