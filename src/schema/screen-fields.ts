/**
 * The fields a form screen works with: its resource's, plus (or instead of) the fields the screen
 * declares itself (`fields`, e.g. a confirmation input or an SMS code an open screen posts with its
 * values). The engine renders this resource and the lint checks the screen against it, so both agree.
 */
import type { DetailScreen, Field, FormScreen, ListScreen, Proof, Resource, Screen } from './types';

/** A screen that may declare fields of its own: a form, or a list or detail over a `source`. */
type OwnFieldsScreen = FormScreen | ListScreen | DetailScreen;

/** The screen's own field definitions (the meta-schema types them loosely; the lint checks each against the resource meta). */
export function screenOwnFields(screen: OwnFieldsScreen): Record<string, Field> {
  return (screen.fields ?? {}) as unknown as Record<string, Field>;
}

/**
 * The resource a form screen edits (or a list shows): `resource` with the screen's own fields on
 * top, or — for an open screen or a list or detail over a `source` without a resource — a resource of its
 * own fields alone, named after the screen.
 */
export function screenResource(screen: OwnFieldsScreen, resource: Resource | undefined): Resource {
  const own = screenOwnFields(screen);
  if (!resource) return { name: screen.id, table: screen.id.replace(/-/g, '_'), title: screen.title, fields: own };
  if (Object.keys(own).length === 0) return resource;
  return { ...resource, fields: { ...resource.fields, ...own } };
}

/** A screen's own `proof` (undefined when it has none, or takes another screen's: loadScreenBundle resolves that). */
export function ownProof(screen: Screen): Proof | undefined {
  return (screen.kind === 'list' || screen.kind === 'detail') && screen.proof && !('of' in screen.proof) ? screen.proof : undefined;
}
