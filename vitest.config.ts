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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 20_000, interval: 50 } },
  },
});
