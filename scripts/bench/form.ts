/**
 * npm run bench:form — first render and keystroke latency of a 300-field schema form (the engine)
 * vs the same form hand-written in Formily JSX, in Chromium, and the JavaScript each page loads
 * and its boot time. Goal: first render ≤ 0.75× the hand-written form, keystroke
 * median ≤ 0.8× (and < 16 ms), JavaScript (gzip) and boot ≤ 1.2×. It reports, it does not
 * assert: exit 0 whatever the numbers, non-zero only when something crashed.
 *
 *  1. scripts/bench/form/spec.ts generates the form (300 fields: string, text, int, decimal, date,
 *     dict, bool; catalogue rules; `when` / `requiredWhen` / `disabledWhen`; 10 grid sections)
 *     and writes the resource, screen and dictionaries in the engine's format into a work
 *     directory under .tmp/ (checked by the schema lint, never under schemas/);
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
 * Env: BENCH_FORM_LOADS (7), BENCH_FORM_KEY_LOADS (3), BENCH_FORM_KEEP=1 keeps the work directory.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import type { LoadResult, Variant } from './form/measure';
import { benchCommandLine } from './report';

benchCommandLine(
  'bench:form',
  'First render and keystroke latency of a 300-field schema form against the same form hand-written in Formily JSX, in Chromium (/usr/bin/chromium), and the JavaScript each page loads and its boot time.',
  [
    ['BENCH_FORM_LOADS', 'fresh loads per variant (default 7)'],
    ['BENCH_FORM_KEY_LOADS', 'loads that also measure keystrokes (default 3)'],
    ['BENCH_FORM_KEEP', 'keep the work directory under .tmp/'],
  ],
);
// The bench's modules load once the command line is understood (`--help` answers at once).
const { measure } = await import('./form/measure');
const { buildSite, mountFacts, serve, writeSite } = await import('./form/site');
const { FIELD_COUNT, generateForm } = await import('./form/spec');

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOADS = Number(process.env.BENCH_FORM_LOADS ?? 7);
const KEY_LOADS = Math.min(LOADS, Number(process.env.BENCH_FORM_KEY_LOADS ?? 3));
const RENDER_GOAL = 0.75;
const KEYSTROKE_GOAL_MS = 16;
const KEYSTROKE_RATIO_GOAL = 0.8;
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

async function main(): Promise<void> {
  console.log(`bench:form — ${FIELD_COUNT}-field schema form (engine) vs the same form hand-written in Formily JSX, in Chromium`);
  if (!existsSync(CHROMIUM)) {
    log(`NOT MEASURED: chromium missing (${CHROMIUM}; apt-get install -y chromium)`);
    return;
  }
  const started = performance.now();
  const form = generateForm();
  const facts = mountFacts(form);
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const workDir = mkdtempSync(join(ROOT, '.tmp', 'bench-form-'));
  let browser: Browser | undefined;
  let server: Awaited<ReturnType<typeof serve>>['server'] | undefined;
  try {
    const { lint } = writeSite(workDir, form);
    const reactions = form.sections.flatMap((s) => s.fields).filter((f) => f.when || f.requiredWhen || f.disabledWhen).length;
    const ruled = form.sections.flatMap((s) => s.fields).filter((f) => f.rules || f.required).length;
    log(
      `form: ${FIELD_COUNT} fields in ${form.sections.length} sections, ${ruled} with validators, ${reactions} with reactions, ${facts.expectedItems} shown at first; schema lint: ${lint}`,
    );

    const buildStarted = performance.now();
    const outDir = join(workDir, 'dist');
    await buildSite(workDir, outDir);
    log(`vite build (production, both pages): ${((performance.now() - buildStarted) / 1000).toFixed(1)} s`);

    const served = await serve(outDir);
    server = served.server;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
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
    report(results, facts.expectedItems, outDir);
    log(`(${((performance.now() - started) / 1000).toFixed(1)} s in all)`);
  } finally {
    await browser?.close();
    server?.close();
    if (process.env.BENCH_FORM_KEEP === '1') log(`work directory kept: ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

/** Gzip bytes of the scripts a load fetched before the page was ready. */
function scriptBytes(outDir: string, scripts: readonly string[]): number {
  return [...new Set(scripts)].reduce((sum, path) => sum + gzipSync(readFileSync(join(outDir, path))).length, 0);
}

function report(results: LoadResult[], expectedItems: number, outDir: string): void {
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
  log(
    `RESULT first render engine/baseline = ${renderRatio.toFixed(2)}× (goal ≤ ${RENDER_GOAL}×, ratio of the medians) — ${renderRatio <= RENDER_GOAL ? 'goal met' : 'GOAL MISSED'}`,
  );
  const jsRatio = js('engine') / js('baseline');
  const bootRatio = boot('engine') / boot('baseline');
  log(`RESULT JavaScript engine/baseline = ${jsRatio.toFixed(2)}× (goal ≤ ${LOAD_GOAL}×) — ${jsRatio <= LOAD_GOAL ? 'goal met' : 'GOAL MISSED'}`);
  log(`RESULT boot engine/baseline = ${bootRatio.toFixed(2)}× (goal ≤ ${LOAD_GOAL}×) — ${bootRatio <= LOAD_GOAL ? 'goal met' : 'GOAL MISSED'}`);
  log(`       main-thread CPU of the first render engine/baseline = ${cpuRatio.toFixed(2)}× (steadier than wall time when the machine is busy)`);
  const keyRatio = keyEngine / keyBaseline;
  const keyMet = keyEngine < KEYSTROKE_GOAL_MS && keyRatio <= KEYSTROKE_RATIO_GOAL;
  log(
    `RESULT keystroke median engine = ${keyEngine.toFixed(1)} ms, baseline = ${keyBaseline.toFixed(1)} ms, ratio ${keyRatio.toFixed(2)}× (goal < ${KEYSTROKE_GOAL_MS} ms and ≤ ${KEYSTROKE_RATIO_GOAL}×) — ${keyMet ? 'goal met' : 'GOAL MISSED'}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:form crashed: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(1);
  },
);
