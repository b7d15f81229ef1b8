/**
 * npm run bench:form — first render and keystroke latency of two 300-field schema forms (the
 * engine) vs the same forms hand-written in Formily JSX, in Chromium, and the JavaScript each page
 * loads and its boot time: "sections" (10 sections of 30 fields) and "one-section" (one grid of
 * 300 fields: nothing to cut into sections). Goals, for each form: first render ≤ 0.75× the
 * hand-written form, keystroke median ≤ 0.8× (and < 16 ms), p95 ≤ 1.0×, JavaScript (gzip) and
 * boot ≤ 1.2×. It reports, it does not assert: exit 0 whatever the numbers, non-zero only when
 * something crashed.
 *
 *  1. scripts/bench/form/spec.ts generates the forms (300 fields: string, text, int, decimal, date,
 *     dict, bool; catalogue rules; `when` / `requiredWhen` / `disabledWhen`; 10 grid sections, or
 *     one grid) and writes the resource, screen and dictionaries in the engine's format into a
 *     work directory under .tmp/ (one subdirectory and build per form; checked by the schema
 *     lint, never under schemas/);
 *  2. two pages, one Vite production build (site.ts): (a) engine-page.tsx — the engine's
 *     FormScreen over those files (compileForm, useSchemaForm, SchemaField with the registered
 *     components); (b) baseline.ts writes the same 300 fields as literal Formily <Field> JSX.
 *     Both run in the product's antd shell (harness.tsx);
 *  3. playwright-core drives /usr/bin/chromium (headless, --no-sandbox --disable-gpu
 *     --disable-background-networking): a warm-up load each, then BENCH_FORM_LOADS (7) fresh
 *     loads per variant, alternating; first render = render-start (before root.render) → the
 *     frame after the form's first screen mounted (median; the engine renders sections further
 *     down when they are reached or the page is idle: harness.tsx; every load must then get all
 *     the form's items into the DOM, reported as `all items`); boot = navigation start → every
 *     script loaded and run; JavaScript = gzip size of the scripts loaded by then; the first BENCH_FORM_KEY_LOADS (3) loads of each
 *     also type 30 characters into a text field in the middle of the form, keydown → the frame
 *     after the input (median, p95). Besides wall-clock times it reads the renderer main
 *     thread's CPU time (CDP `ThreadTime`) for the render and per keystroke, and prints per-round
 *     ratios: on a shared 2-core machine wall-clock times swing with other load, CPU time much less.
 *
 * Env: BENCH_FORM_LOADS (7), BENCH_FORM_KEY_LOADS (3), BENCH_FORM_KEEP=1 keeps the work directory,
 * BENCH_FORM_FORMS=one-section (or sections) measures one form only.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import type { LoadResult, Variant } from './form/measure';
import type { BenchForm } from './form/spec';
import { benchCommandLine, printResult } from './report';

benchCommandLine(
  'bench:form',
  'First render and keystroke latency of two 300-field schema forms (10 sections; one section) against the same forms hand-written in Formily JSX, in Chromium (/usr/bin/chromium), and the JavaScript each page loads and its boot time.',
  [
    ['BENCH_FORM_LOADS', 'fresh loads per variant (default 7)'],
    ['BENCH_FORM_KEY_LOADS', 'loads that also measure keystrokes (default 3)'],
    ['BENCH_FORM_KEEP', 'keep the work directory under .tmp/'],
    ['BENCH_FORM_FORMS', 'which forms, comma-separated: sections,one-section (default both)'],
  ],
);
// The bench's modules load once the command line is understood (`--help` answers at once).
const { measure } = await import('./form/measure');
const { buildSite, mountFacts, serve, writeSite } = await import('./form/site');
const { FIELD_COUNT, generateForm, generateOneSectionForm } = await import('./form/spec');

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOADS = Number(process.env.BENCH_FORM_LOADS ?? 7);
const KEY_LOADS = Math.min(LOADS, Number(process.env.BENCH_FORM_KEY_LOADS ?? 3));
const RENDER_GOAL = 0.75;
const KEYSTROKE_GOAL_MS = 16;
const KEYSTROKE_RATIO_GOAL = 0.8;
const KEYSTROKE_P95_RATIO_GOAL = 1.0;
const LOAD_GOAL = 1.2;
const TEXT = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5';
const WARMUP_TEXT = 'Zz9';

const log = (message = '') => console.log(message && `  ${message}`);

const median = (xs: readonly number[]) => quantile(xs, 0.5);
function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : '—');
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

function table(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => log(cells.map((c, i) => (i === 0 ? pad(c, widths[i]) : lpad(c, widths[i]))).join('   '));
  line(headers);
  line(widths.map((w) => '─'.repeat(w)));
  rows.forEach(line);
}

/** The forms measured: today's form cut into 10 sections, and the same size of form in one section. */
const FORMS: { name: string; title: string; generate: () => BenchForm }[] = [
  { name: 'sections', title: '10 sections', generate: generateForm },
  { name: 'one-section', title: 'one section', generate: generateOneSectionForm },
];

async function main(): Promise<void> {
  console.log(`bench:form — ${FIELD_COUNT}-field schema forms (engine) vs the same forms hand-written in Formily JSX, in Chromium`);
  if (!existsSync(CHROMIUM)) {
    log(`NOT MEASURED: chromium missing (${CHROMIUM}; apt-get install -y chromium)`);
    return;
  }
  const wanted = (process.env.BENCH_FORM_FORMS ?? '').split(',').filter(Boolean);
  const forms = FORMS.filter((f) => wanted.length === 0 || wanted.includes(f.name));
  if (forms.length === 0) throw new Error(`BENCH_FORM_FORMS names no form (${FORMS.map((f) => f.name).join(', ')})`);
  const started = performance.now();
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const workDir = mkdtempSync(join(ROOT, '.tmp', 'bench-form-'));
  let browser: Browser | undefined;
  try {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    for (const entry of forms) await measureForm(browser, entry.name, entry.title, entry.generate(), join(workDir, entry.name));
    log(`(${((performance.now() - started) / 1000).toFixed(1)} s in all)`);
  } finally {
    await browser?.close();
    if (process.env.BENCH_FORM_KEEP === '1') log(`work directory kept: ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

async function measureForm(browser: Browser, name: string, title: string, form: BenchForm, workDir: string): Promise<void> {
  console.log();
  console.log(`  === form "${name}": ${FIELD_COUNT} fields in ${title}`);
  const facts = mountFacts(form);
  mkdirSync(workDir, { recursive: true });
  let server: Awaited<ReturnType<typeof serve>>['server'] | undefined;
  try {
    const { lint } = writeSite(workDir, form);
    const reactions = form.sections.flatMap((s) => s.fields).filter((f) => f.when || f.requiredWhen || f.disabledWhen).length;
    const ruled = form.sections.flatMap((s) => s.fields).filter((f) => f.rules || f.required).length;
    log(
      `form: ${FIELD_COUNT} fields in ${form.sections.length} section${form.sections.length === 1 ? '' : 's'}, ${ruled} with validators, ${reactions} with reactions, ${facts.expectedItems} shown at first; schema lint: ${lint}`,
    );

    const buildStarted = performance.now();
    const outDir = join(workDir, 'dist');
    await buildSite(workDir, outDir);
    log(`vite build (production, both pages): ${((performance.now() - buildStarted) / 1000).toFixed(1)} s`);

    const served = await serve(outDir);
    server = served.server;
    const load = loadavg()[0];
    log(
      `machine: ${cpus().length} cores, load average ${load.toFixed(1)}${load > cpus().length * 0.75 ? ' — other work is running: expect noisy timings, compare the per-round ratios' : ''}`,
    );
    log(
      `${browser.version()}; ${LOADS} fresh loads per variant (alternating, after one warm-up each), ${KEY_LOADS} of them typing ${TEXT.length} keys into 「${facts.typingLabel}」`,
    );

    const results = await measure(browser, {
      origin: served.origin,
      loads: LOADS,
      keystrokeLoads: KEY_LOADS,
      typingLabel: facts.typingLabel,
      text: TEXT,
      warmupText: WARMUP_TEXT,
      keyGap: 50,
    });
    report(name, results, facts.expectedItems, outDir);
    log(`machine load average after: ${loadavg()[0].toFixed(1)}`);
  } finally {
    server?.close();
  }
}

/** Gzip bytes of the scripts a load fetched before the page was ready. */
function scriptBytes(outDir: string, scripts: readonly string[]): number {
  return [...new Set(scripts)].reduce((sum, path) => sum + gzipSync(readFileSync(join(outDir, path))).length, 0);
}

function report(name: string, results: LoadResult[], expectedItems: number, outDir: string): void {
  const of = (v: Variant) => results.filter((r) => r.variant === v);
  const variants: Variant[] = ['engine', 'baseline'];

  log();
  log(
    'first render (ms, median of the loads; render = render-start → the frame with the form produced, mount = → its commit, cpu = renderer main-thread CPU time for it)',
  );
  table(
    ['variant', 'render', 'min', 'max', 'mount', 'cpu', 'items', 'all items', 'runs'],
    variants.map((v) => {
      const rs = of(v);
      const render = rs.map((r) => r.render);
      const untyped = rs.filter((r) => r.keystrokes.length === 0);
      return [
        v,
        ms(median(render)),
        ms(Math.min(...render)),
        ms(Math.max(...render)),
        ms(median(rs.map((r) => r.mount))),
        ms(median(rs.map((r) => r.renderCpu))),
        String(median(rs.map((r) => r.items))),
        `${median(rs.map((r) => r.allItems))} at ${ms(median(untyped.map((r) => r.complete)))}`,
        `${rs.length}${rs.every((r) => r.oneCommit) ? '' : ' (not one commit)'}`,
      ];
    }),
  );
  log(
    '(all items = every form item in the DOM, at: render-start → then, median of the loads without typing; the engine renders sections below the first screen when reached or when the page is idle)',
  );
  const engine = of('engine');
  const compileFirst = median(engine.map((r) => r.extra.compileFirst ?? NaN));
  const compileWarm = median(engine.map((r) => r.extra.compileWarm ?? NaN));
  log(
    `engine compileFormUncached after mount: first ${ms(compileFirst)}, warm ${ms(compileWarm)} (part of the engine's render; the first render compiles once per screen)`,
  );
  const items = new Set(results.map((r) => r.allItems));
  if (items.size !== 1 || !items.has(expectedItems))
    log(`WARNING: form items differ between loads or from the expected ${expectedItems}: ${[...items].join(', ')}`);

  log();
  log('page load (boot = navigation start → all scripts loaded and run, median; JavaScript = gzip bytes of the scripts loaded by then)');
  const js = (v: Variant) => median(of(v).map((r) => scriptBytes(outDir, r.scripts)));
  const boot = (v: Variant) => median(of(v).map((r) => r.boot));
  table(
    ['variant', 'boot', 'JavaScript (gzip)', 'scripts'],
    variants.map((v) => [v, ms(boot(v)), `${(js(v) / 1000).toFixed(1)} KB`, String(median(of(v).map((r) => new Set(r.scripts).size)))]),
  );

  log();
  log("keystroke (ms; total = keydown → the frame after the input is produced, busy = input handling + that frame's work, without the wait for the frame)");
  const keyStats = (v: Variant) => {
    const samples = of(v).flatMap((r) => r.keystrokes);
    const total = samples.map((s) => s.painted - s.start);
    const busy = samples.map((s) => s.handled - s.start + (s.painted - s.frame));
    const handled = samples.map((s) => s.handled - s.start);
    return { n: samples.length, total, busy, handled };
  };
  table(
    ['variant', 'median', 'p95', 'max', 'busy median', 'busy p95', 'input handling median', 'cpu/key', 'keys'],
    variants.map((v) => {
      const k = keyStats(v);
      const cpu = median(
        of(v)
          .filter((r) => r.keystrokes.length > 0)
          .map((r) => r.keyCpu),
      );
      return [
        v,
        ms(median(k.total)),
        ms(quantile(k.total, 0.95)),
        ms(Math.max(...k.total)),
        ms(median(k.busy)),
        ms(quantile(k.busy, 0.95)),
        ms(median(k.handled)),
        ms(cpu),
        String(k.n),
      ];
    }),
  );

  const renderRatio = median(engine.map((r) => r.render)) / median(of('baseline').map((r) => r.render));
  // Each round loads both variants back to back: the per-round ratio cancels slow drifts in machine load.
  const paired: number[] = [];
  const pairedCpu: number[] = [];
  for (let i = 0; i + 1 < results.length; i += 2) {
    const [a, b] = [results[i], results[i + 1]];
    const [e, h] = a.variant === 'engine' ? [a, b] : [b, a];
    paired.push(e.render / h.render);
    pairedCpu.push(e.renderCpu / h.renderCpu);
  }
  const spread = (xs: number[]) =>
    `median ${median(xs).toFixed(2)}×, quartiles ${quantile(xs, 0.25).toFixed(2)}–${quantile(xs, 0.75).toFixed(2)}× (${xs.map((r) => r.toFixed(2)).join(' ')})`;
  const keyEngine = median(keyStats('engine').total);
  const keyBaseline = median(keyStats('baseline').total);
  log();
  log(`per-round ratios engine/baseline, render: ${spread(paired)}`);
  log(`                                     cpu:    ${spread(pairedCpu)}`);
  const cpuRatio = median(engine.map((r) => r.renderCpu)) / median(of('baseline').map((r) => r.renderCpu));
  const jsRatio = js('engine') / js('baseline');
  const bootRatio = boot('engine') / boot('baseline');
  log(`main-thread CPU of the first render engine/baseline = ${cpuRatio.toFixed(2)}× (steadier than wall time when the machine is busy)`);
  const keyRatio = keyEngine / keyBaseline;
  const keyP95Ratio = quantile(keyStats('engine').total, 0.95) / quantile(keyStats('baseline').total, 0.95);
  const ratioResult = (what: string, ratio: number, goal: number) =>
    printResult(`form ${name}: ${what} engine/baseline`, `${ratio.toFixed(2)}×`, `≤ ${goal}×`, ratio / goal, ratio <= goal, 'measured / goal');
  ratioResult('first render', renderRatio, RENDER_GOAL);
  printResult(
    `form ${name}: keystroke median engine/baseline`,
    `${keyRatio.toFixed(2)}× (${keyEngine.toFixed(1)} ms vs ${keyBaseline.toFixed(1)} ms)`,
    `≤ ${KEYSTROKE_RATIO_GOAL}× and < ${KEYSTROKE_GOAL_MS} ms`,
    keyRatio / KEYSTROKE_RATIO_GOAL,
    keyRatio <= KEYSTROKE_RATIO_GOAL && keyEngine < KEYSTROKE_GOAL_MS,
    'measured / goal',
  );
  ratioResult('keystroke p95', keyP95Ratio, KEYSTROKE_P95_RATIO_GOAL);
  ratioResult('JavaScript (gzip)', jsRatio, LOAD_GOAL);
  ratioResult('boot', bootRatio, LOAD_GOAL);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:form crashed: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(1);
  },
);
