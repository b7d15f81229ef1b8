/**
 * A screen's field references resolved against its resource: the resource's facts (label, type,
 * rules, dictionary) with the screen's overrides on top. Compiler, list and detail share this.
 */
import { fieldKind } from '../../schema/kinds';
import { resourceFields } from '../../schema/model';
import type { Field, FieldItem, FieldRef, Resource } from '../../schema/types';

export interface ResolvedField {
  name: string;
  field: Field;
  /** The screen's entry (overrides, reactions); a bare name becomes `{ field: name }`. */
  item: FieldItem;
  label: string;
}

export class UnknownFieldError extends Error {
  constructor(resource: string, name: string) {
    super(`resource '${resource}' has no field '${name}'`);
    this.name = 'UnknownFieldError';
  }
}

/** The resource's field by name (declared or system); throws for an unknown name. */
export function fieldOf(resource: Resource, name: string): Field {
  const field = resourceFields(resource).get(name);
  if (!field) throw new UnknownFieldError(resource.name, name);
  return field;
}

export function resolveField(resource: Resource, ref: FieldRef | { field: string; label?: string }): ResolvedField {
  const item: FieldItem = typeof ref === 'string' ? { field: ref } : ref;
  const field = fieldOf(resource, item.field);
  return { name: item.field, field, item, label: item.label ?? field.label };
}

/**
 * The values a new record may start from its address: declared, writable, single-valued text or
 * code fields only (what a list's fixed `where` can name); anything else is dropped.
 */
export function writableValues(resource: Resource, values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).filter(([name]) => {
      const field = resource.fields[name];
      return field !== undefined && !field.readonly && fieldKind(field.type).value === 'string' && field.type !== 'ref';
    }),
  );
}
