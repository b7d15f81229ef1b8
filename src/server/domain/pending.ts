/**
 * Legacy paths (SPEC.md §7) of resources not written yet: listed so the whole legacy surface is in
 * one place; the server logs them as unbound until their resource lands. When it does, move its
 * paths into that resource's JSON `api` (or its feature's `legacy`) and delete them here.
 */
import { legacyRoute } from '../legacy/table';
import type { DomainFeature } from './feature';

export const pendingLegacyPaths: DomainFeature = {
  name: 'pending',
  legacy: [
    // Construction notification
    legacyRoute('/a/stone/eqmBcwBasic/list', 'eqm-bcw-basic', 'list'),
    legacyRoute('/a/stone/eqmBcwBasic/detail', 'eqm-bcw-basic', 'get'),
    legacyRoute('/a/stone/eqmBcwBasic/save', 'eqm-bcw-basic', 'save'),
    legacyRoute('/a/stone/eqmBcwBasic/commit', 'eqm-bcw-basic', 'commit'),
    legacyRoute('/a/stone/eqmBcwBasic/delete', 'eqm-bcw-basic', 'delete'),
    legacyRoute('/a/stone/eqmBcwBasic/showOpinion', 'eqm-bcw-basic', 'flowLog'),
  ],
};
