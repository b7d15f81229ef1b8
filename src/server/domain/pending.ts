/**
 * Legacy paths (the original API) of resources not written yet: listed so the whole legacy surface is in
 * one place; the server logs them as unbound until their resource lands. When it does, move its
 * paths into that resource's JSON `api` (or its feature's `legacy`) and delete them here.
 */
import type { DomainFeature } from './feature';

export const pendingLegacyPaths: DomainFeature = {
  name: 'pending',
  // None at present (the construction notices' paths moved to eqm-bcw-basic.json and the construction wing).
  legacy: [],
};
