/** Everything a resource's requests need, prepared once at start (no per-request compilation). */
import type { Catalog } from './catalog';
import type { HookRegistry, HookRuntime } from './hooks';
import { compileListPlan } from './filters';
import { compileModels } from './model';
import type { FieldCipher } from './sealed-columns';
import type { CompiledResource } from './records';
import { actionInputSchema, saveBodySchema } from './schemas';
import { compileValidator } from './validation';

/**
 * Compiles the catalog's resources; every hook a resource names must be in `hooks` (checked here,
 * at start). `cipher`: ID card and mobile columns are stored encrypted (sealed-fields.ts).
 */
export function compileResources(
  catalog: Catalog,
  hooks: HookRegistry = new Map(),
  cipher: FieldCipher | null = null,
): { all: CompiledResource[]; routed: CompiledResource[] } {
  const models = compileModels(catalog, cipher);
  const runtime: HookRuntime = { hooks, dicts: catalog.dictItems, models: new Map(models.map((m) => [m.name, m])) };
  for (const model of models) {
    const named = [...model.derive, ...model.onDelete, ...Object.values(model.workflow?.actions ?? {}).flatMap((a) => a?.effects ?? [])];
    const missing = named.filter((name) => !hooks.has(name));
    if (missing.length > 0) throw new Error(`resource '${model.name}' names server hooks that are not registered: ${missing.join(', ')}`);
  }
  const all = models.map((model) => {
    const listPlan = compileListPlan(model);
    return {
      runtime,
      model,
      listPlan,
      validateInsert: compileValidator(saveBodySchema(model, 'insert')),
      validateUpdate: compileValidator(saveBodySchema(model, 'update')),
      validateParams: compileValidator(listPlan.paramsSchema),
      validateInputs: new Map(
        Object.entries(model.workflow?.actions ?? {}).flatMap(([name, action]) =>
          action?.input ? [[name, compileValidator(actionInputSchema(model, action.input))] as const] : [],
        ),
      ),
    };
  });
  // Sub-table resources are reached through their parent only.
  return { all, routed: all.filter((r) => !r.model.isChild) };
}
