import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";
import { TEST_SETS, testSet } from "./test/support/test-sets";

// Separate from vite.config.ts so the Remix plugin does not run under Vitest.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // Which files run is chosen by RV_TEST_SET (scripts/test.mjs sets it; decision 026): the whole suite on SQLite,
    // the files that touch storage on PostgreSQL, the heavy scale tests on their own.
    ...TEST_SETS[testSet(process.env)],
    globalSetup: ["test/support/global-setup.ts"],
    pool: "forks",
    // Most files wait (on the app's server, a worker process, Chromium, the contract's 20 s window) rather than compute.
    // Vitest's default on 2 cores is one file at a time (cores - 1); four side by side keep both cores busy. More than four
    // on PostgreSQL would need more connections than its default max_connections (100) allows: see DATABASE_POOL_MAX below.
    maxWorkers: 4,
    minWorkers: 1,
    env: {
      // Each app and worker process of a test keeps at most this many PostgreSQL connections (default 20), so that four
      // files side by side, one with four worker processes, stay under PostgreSQL's default of 100.
      DATABASE_POOL_MAX: "8",
    },
    // Limits here only stop a test that hangs: each waits for what it needs and ends when it has it,
    // so a busy machine (npm run test:stress) makes a test slower, never wrong. expect.poll's own
    // default (1 s) failed a browser filter on a machine at load 7 (issue 29).
    // They are generous so that a test is never cut short while it still runs: vitest does not stop
    // a test it timed out, and a loop left running (a backfill moving the shared test clock) then
    // broke the next tests in its file (issue 29). A real hang costs minutes, not a wrong verdict.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 120_000, interval: 50 } },
  },
});
