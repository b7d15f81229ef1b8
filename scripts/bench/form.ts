/**
 * npm run bench:form — first render and keystroke latency of a 300-field schema form (the engine's
 * compiler) vs the same form hand-written in Formily JSX, in Chromium. Goal: ≤ 1.2× on first
 * render, keystroke < 16 ms.
 *
 * Skeleton: the client form compiler (src/engine/form/compile.ts) is being written in parallel.
 * Until it exists this says so and exits 0; once it exists but the measurement below is not
 * written, it says NOT MEASURED (exit 0) so `npm run bench` still runs the other benches.
 *
 * Planned measurement (to implement once `compileForm` is stable):
 *  1. generate a resource with 300 fields (string, dict, date, number, bool; rules; a few `when`
 *     reactions) and a form screen over it, into a temp dir;
 *  2. two Vite entries built into a temp dir: (a) the engine rendering the screen through
 *     compileForm + @formily/antd-v5, (b) the same 300 fields written as Formily JSX (<Field>s with
 *     the same decorators, components and validators);
 *  3. playwright-core, executablePath /usr/bin/chromium, headless, --no-sandbox --disable-gpu
 *     --disable-background-networking; each page marks `render-start` before createRoot and
 *     `render-end` in a layout effect after the form mounts; 5 loads each, median;
 *  4. keystroke latency: type 20 characters into field 150 and measure keydown → next frame
 *     (requestAnimationFrame after the input event) per key, median and p95;
 *  5. print engine/hand-written ratios with printResult.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const COMPILER = fileURLToPath(new URL('../../src/engine/form/compile.ts', import.meta.url));

console.log('bench:form — 300-field schema form vs hand-written Formily JSX, in Chromium');
if (!existsSync(COMPILER)) {
  console.log('  not available yet: src/engine/form/compile.ts missing');
} else {
  console.log('  NOT MEASURED: src/engine/form/compile.ts exists, but the Chromium measurement is not implemented yet (see the plan in scripts/bench/form.ts)');
}
