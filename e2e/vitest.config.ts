import { defineConfig } from 'vitest/config';

// The browser suite: one started stack (scripts/start.ts: local chain, contracts, server, built
// web app) shared by every file, driven by Debian's Chromium through playwright-core.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 240_000,
    // One browser at a time: the machine has two cores and the stack needs one.
    fileParallelism: false,
  },
});
