import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';

const projectRoot = fileURLToPath(new URL('.', import.meta.url));

// The API base path ("espServer" in the original system) is configuration, shared with the server.
const apiBase = process.env.PORTAL_API_BASE ?? '/espServer';
const apiTarget = process.env.PORTAL_API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  // index.html lives in src/ because the top level of the repository is fixed.
  root: 'src',
  // precompress: .br and .gz beside each asset, served as they are (src/server/plugins/spa.ts).
  plugins: [react(), precompress()],
  define: {
    __API_BASE__: JSON.stringify(apiBase),
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { [apiBase]: { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: `${projectRoot}dist`,
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // The build writes .br and .gz itself (scripts/precompress.ts): no second gzip pass only to print sizes.
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        // React is one stable vendor chunk (every page needs all of it). antd and Formily are not
        // grouped: each route's chunks hold the components it imports, so the login page loads a
        // handful of antd components, not all of antd (issue 18; budget in tests/e2e/first-load.test.ts).
        codeSplitting: {
          groups: [
            // Vite's preload helper goes with React: left alone it lands in whichever group needs it
            // first, and the entry would import that whole chunk for one function.
            { name: 'react', priority: 30, test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]|vite[\\/]preload-helper/ },
          ],
        },
      },
    },
  },
  test: {
    root: projectRoot,
    // Vitest's default is one worker per core less one: a single worker on a two-core machine, every
    // file after the other. Much of a file's time is spent waiting on another process (PostgreSQL,
    // the server under test, the browser), so two workers overlap those waits. The e2e project stays
    // one file at a time (fileParallelism: false); Vitest runs it after the other projects.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // Sized for a shared two-core machine at load 20: an in-memory PGlite takes over 30 s to start
      // there, and a test that reads every schema or deflates megabytes over 5 s. One setting for the
      // whole project instead of per-test literals; a passing test returns at once.
      {
        extends: true,
        test: {
          root: projectRoot,
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      // A suite's beforeAll builds a database and logs users in (password hashing): 120 s at load 20.
      {
        extends: true,
        test: { root: projectRoot, name: 'api', include: ['tests/api/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000 },
      },
      // Issue 17's suite (fuzz, RBAC sweep, cross-unit): part of `npm test`, alone by `npm run test:reliability`.
      {
        extends: true,
        test: {
          root: projectRoot,
          name: 'reliability',
          include: ['tests/reliability/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600000,
          hookTimeout: 120000,
        },
      },
      {
        extends: true,
        test: {
          root: projectRoot,
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 120000,
          hookTimeout: 180000,
          fileParallelism: false,
          // expect.poll waits 1 s by default: too short for a busy two-core machine rendering a new tab,
          // and an action plus the list's refresh took over 10 s once while API tests ran beside it.
          // A poll that passes returns at once; only a failure waits this long.
          expect: { poll: { timeout: 30_000, interval: 100 } },
        },
      },
    ],
  },
});
