/** Builds the front end with Vite (used by the e2e setup and by scripts that need dist/). */
import { build } from 'vite';
import { fileURLToPath } from 'node:url';

export async function buildFrontEnd(): Promise<void> {
  const configFile = fileURLToPath(new URL('../vite.config.ts', import.meta.url));
  await build({ configFile, mode: 'production', logLevel: 'warn' });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildFrontEnd();
}
