import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

// Separate from vite.config.ts so the Remix plugin does not run under Vitest.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    pool: "forks",
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
