#!/usr/bin/env node
// `npm test`: Prettier's check, type-check, lint, then the whole Vitest suite (browser tests included) on SQLite, or
// on PostgreSQL when TEST_DATABASE_URL=postgresql://… is set. Extra arguments go to vitest.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

// The suite runs on the one Node the project pins (bin/with-node), so that what passes here is what runs in production.
const pinned = /^NODE_VERSION=(\S+)$/m.exec(readFileSync(join(root, "bin/with-node"), "utf8"))?.[1];
if (process.version !== `v${pinned}`) {
  console.error(`npm test runs on Node ${pinned}, the version the project pins; this is Node ${process.version.slice(1)}.`);
  console.error("Run it as `bin/with-node npm test`: bin/with-node fetches that Node once from the npm registry.");
  process.exit(1);
}
console.log(`▶ Node ${process.version} (${process.execPath})`);
const databaseUrl = process.env.TEST_DATABASE_URL || "file:./prisma/test-generate.sqlite";
const env = { ...process.env, CHECKPOINT_DISABLE: "1" };

function step(name, command, args, extraEnv = {}) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  if (result.status !== 0) {
    console.error(`✗ ${name} failed`);
    process.exit(result.status ?? 1);
  }
}

step(`prisma client for ${/^postgres/.test(databaseUrl) ? "PostgreSQL" : "SQLite"}`, "node", ["scripts/db.mjs", "generate"], { DATABASE_URL: databaseUrl });
step("format (prettier --check)", "node_modules/.bin/prettier", ["--check", "--log-level", "warn", "**/*.{ts,tsx,mjs,js,css,json}"]);
step("type-check (tsc --noEmit)", "node_modules/.bin/tsc", ["--noEmit"]);
step("lint (eslint)", "node_modules/.bin/eslint", ["--max-warnings", "0", "."]);

const report = join(mkdtempSync(join(tmpdir(), "rv-vitest-")), "report.json");
console.log(`\n▶ vitest on ${/^postgres/.test(databaseUrl) ? "PostgreSQL" : "SQLite"}`);
const vitest = spawnSync(
  "node_modules/.bin/vitest",
  // --retry=0: a test that fails is reported, never rerun until it passes (whatever a config says).
  ["run", "--retry=0", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
    env,
  },
);
let summary = "";
try {
  const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, "utf8"));
  summary = `${numPassedTests} passed, ${numFailedTests} failed${numPendingTests ? `, ${numPendingTests} skipped` : ""}`;
} catch {
  summary = "0 passed, 1 failed";
}
console.log(`\nvitest: ${summary}`);
process.exit(vitest.status ?? 1);
