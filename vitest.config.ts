import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { defaultLangNamespaces } from './apps/web/default-lang-namespaces.ts';

// One runner for every workspace. Each project keeps its tests beside its code.
export default defineConfig({
  test: {
    // One test file per core. Vitest's default leaves a core to itself (one worker on this 2-core
    // machine), but the server files mostly wait on PostgreSQL, Redis and the local chain, which
    // run in processes of their own: two workers took the suite from 798 s to 517 s here.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // The server files share their workers' module graph (isolate: false): each file opens its own
      // database and closes it, and none mocks a module, so re-importing the server for each of the
      // ~95 files was the suite's largest single cost (about half of its time).
      { test: { name: 'server', root: 'apps/server', include: ['src/**/*.test.ts'], isolate: false, testTimeout: 60_000, hookTimeout: 120_000 } },
      // The same server suite on real PostgreSQL, when a server is named (CI always names one).
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: 'server-pg',
                root: 'apps/server',
                include: ['src/**/*.test.ts'],
                env: { TEST_DB: 'postgres' },
                isolate: false,
                testTimeout: 60_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
      // Checks over the whole repository (scripts/*.test.ts): no file cites a document outside it.
      { test: { name: 'repo', root: '.', include: ['scripts/**/*.test.ts'] } },
      // Every `npm run bench:*` at a tiny size, each in a process of its own (apps/server/bench/benches.test.ts).
      { test: { name: 'bench', root: 'apps/server', include: ['bench/**/*.test.ts'], testTimeout: 180_000 } },
      // The chaos run (ops/chaos): a cluster under load through five faults, ~5 minutes (docs/chaos.md).
      // A step of its own in `npm test` (CHAOS=on, beside the browser suite), not part of the unit run.
      ...(process.env.CHAOS === 'on'
        ? [{ test: { name: 'chaos', root: 'ops', include: ['chaos/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 1_200_000 } }]
        : []),
      { test: { name: 'money', root: 'packages/money', include: ['src/**/*.test.ts'] } },
      { test: { name: 'proof', root: 'packages/proof', include: ['src/**/*.test.ts'] } },
      { test: { name: 'api', root: 'packages/api', include: ['src/**/*.test.ts'] } },
      { test: { name: 'envelope', root: 'packages/envelope', include: ['src/**/*.test.ts'] } },
      { test: { name: 'economy', root: 'packages/economy', include: ['src/**/*.test.ts'] } },
      { test: { name: 'engine', root: 'packages/engine', include: ['src/**/*.test.ts'], testTimeout: 120_000 } },
      { test: { name: 'device-agent', root: 'packages/device-agent', include: ['src/**/*.test.ts'] } },
      { test: { name: 'chain', root: 'packages/chain', include: ['src/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
      { test: { name: 'admin', root: 'apps/admin', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'] } },
      {
        // The build's virtual modules that app code imports (the default language's namespaces).
        plugins: [defaultLangNamespaces()],
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'build.test.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
