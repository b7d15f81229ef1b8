/** Builds the front end with Vite (used by the e2e setup and by scripts that need dist/). */
import { build } from 'vite';
import { fileURLToPath } from 'node:url';

export async function buildFrontEnd(): Promise<void> {
  const configFile = fileURLToPath(new URL('../vite.config.ts', import.meta.url));
  // What ships: vitest sets NODE_ENV=test, which would bundle React's development build.
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile, mode: 'production', logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = previous;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildFrontEnd();
}
