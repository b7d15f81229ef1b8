import { describe, expect, it } from 'vitest';
import { generateTypes, staleFiles } from '../../scripts/gen-types';

describe('generated schema types', () => {
  it('are up to date with schemas/meta (run npm run gen:types)', async () => {
    const generated = await generateTypes();
    expect([...generated.keys()]).toEqual(expect.arrayContaining(['resource.ts', 'screen.ts', 'dict.ts']));
    expect(staleFiles(generated)).toEqual([]);
  });

  it('are deterministic', async () => {
    expect(await generateTypes()).toEqual(await generateTypes());
  });
});
