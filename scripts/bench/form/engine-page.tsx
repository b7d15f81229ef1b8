/**
 * The engine side of bench:form: the generated schema files go through the engine's own pieces,
 * as a schema screen does in the product — a memory registry and `loadScreenBundle` (outside the
 * measured time, like the bundled registry's lazy JSON import), then the engine's FormScreen in
 * add mode inside EngineProvider and a router: compileForm (first call: a cold compile, inside the
 * measured render), useSchemaForm (createForm with deferred validation and dirty tracking),
 * @formily/antd-v5's Form, the engine's SchemaField with its registered components, and the
 * action bar.
 *
 * After the first paint it times compileFormUncached on the same bundle (cold-ish first call and
 * warm median), outside the measured frame, to show how much of the render the compile is.
 */
import '@ant-design/v5-patch-for-react-19';
import { MemoryRouter } from 'react-router-dom';
// The modules a form page needs, not the engine's index (which re-exports every screen kind: the
// product's router loads those per screen).
import { EngineProvider } from '../../../src/engine/context';
import type { DataProvider } from '../../../src/engine/data/provider';
import { compileFormUncached, type FormLikeScreen } from '../../../src/engine/form/compile';
import { loadScreenBundle, memoryRegistry } from '../../../src/engine/registry/registry';
import FormScreen from '../../../src/engine/form/FormScreen';
import type { Dict, Resource, Screen } from '../../../src/schema/types';
import { failBench, mountBench, type MountOptions } from './harness';

const offline = () => Promise.reject(new Error('bench:form has no server'));

/** A data provider that is never called in add mode before a save. */
const NO_DATA: DataProvider = { getList: offline, getOne: offline, save: offline, action: offline, flowLog: offline };

export interface EngineDocs {
  resource: Resource;
  screen: Screen;
  dicts: Dict[];
}

export async function mountEngine(docs: EngineDocs, options: MountOptions): Promise<void> {
  try {
    const registry = memoryRegistry({ screens: [docs.screen], resources: [docs.resource], dicts: docs.dicts });
    const bundle = await loadScreenBundle(registry, docs.screen.id);
    mountBench(
      'engine',
      <EngineProvider dataProvider={NO_DATA} registry={registry}>
        <MemoryRouter>
          <FormScreen bundle={bundle} mode="add" />
        </MemoryRouter>
      </EngineProvider>,
      options,
      (result) => {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const t0 = performance.now();
          compileFormUncached(bundle.screen as FormLikeScreen, bundle);
          times.push(performance.now() - t0);
        }
        result.extra.compileFirst = times[0];
        result.extra.compileWarm = [...times.slice(1)].sort((a, b) => a - b)[2];
      },
    );
  } catch (error) {
    failBench('engine', error);
  }
}
