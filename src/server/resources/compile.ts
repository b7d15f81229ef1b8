/** Everything a resource's requests need, prepared once at start (no per-request compilation). */
import type { Catalog } from './catalog';
import { compileListPlan } from './filters';
import { compileModels } from './model';
import type { CompiledResource } from './records';
import { saveBodySchema } from './schemas';
import { compileValidator } from './validation';

export function compileResources(catalog: Catalog): { all: CompiledResource[]; routed: CompiledResource[] } {
  const all = compileModels(catalog).map((model) => {
    const listPlan = compileListPlan(model);
    return {
      model,
      listPlan,
      validateInsert: compileValidator(saveBodySchema(model, 'insert')),
      validateUpdate: compileValidator(saveBodySchema(model, 'update')),
      validateParams: compileValidator(listPlan.paramsSchema),
    };
  });
  // Sub-table resources are reached through their parent only.
  return { all, routed: all.filter((r) => !r.model.isChild) };
}
