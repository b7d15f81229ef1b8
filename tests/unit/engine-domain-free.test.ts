/**
 * The engine is general: nothing under src/engine, src/schema or src/server/resources (generated types
 * included, which carry the meta-schemas' descriptions) may name the special-equipment domain; and the
 * server's core (everything but the feature wings under src/server/domain, the demo data and the
 * migrations) names no domain feature: features join through src/server/domain/feature.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DOMAIN_WORDS = /equip|eqm|elevator|boiler|equclacode|设备|电梯|锅炉|起重|压力容器/i;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : /\.(ts|tsx|css)$/.test(entry.name) ? [path] : [];
  });
}

describe('the engine never mentions the domain', () => {
  it.each(['src/engine', 'src/schema', 'src/server/resources'])('%s', (dir) => {
    const hits = files(join(root, dir)).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (DOMAIN_WORDS.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});

/** The wings' names and the words of their resources, services and errors. */
const FEATURE_WORDS =
  /equip|eqm|inspection|payment|pay_?order|use-?regist|registration|online-?apply|\bfees?\b|workers?\b|operator-?cert|certificate|responsibility|hidden-?danger|company-info|unit-?profile|unit-?(type-)?change|unit-?branch|safety-?(staff|dept)|construction|bcw|service-?records?|self-?service|invoice|interaction|price-?apply|service-?apply|maintenance(?!_work_mem)|维保|notice-?article|\bnotices\b|supervision|area-?units?|simple-?declaration|dlgzh|account-?apply|report-?reissue|reissue|简易申报|设备|检验|缴费|登记|作业人员|企业信息|施工|整改/i;
const SERVER_CORE = [
  'src/server/app.ts',
  'src/server/errors.ts',
  'src/server/legacy',
  'src/server/plugins',
  'src/server/resources',
  'src/server/routes',
  'src/server/services',
  'src/server/validation',
];

describe('the server core names no domain feature', () => {
  const wings = readdirSync(join(root, 'src/server/domain'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

  it('the word list covers every feature wing', () => {
    expect(wings.length).toBeGreaterThan(2);
    for (const wing of wings) expect(wing, `add the words of feature '${wing}' to FEATURE_WORDS`).toMatch(FEATURE_WORDS);
  });

  it.each(SERVER_CORE)('%s', (path) => {
    const full = join(root, path);
    const hits = (statSync(full).isDirectory() ? files(full) : [full]).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (FEATURE_WORDS.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
