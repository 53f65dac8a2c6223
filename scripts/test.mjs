#!/usr/bin/env node
// `npm test`: Prettier's check, type-check, lint, the floors of app/ (scripts/floors.mjs: no import up a floor, no circle
// of folders or files), then the Vitest suite (browser tests included). On SQLite every file runs; with
// TEST_DATABASE_URL=postgresql://… the files that touch storage run again on PostgreSQL (decision 026).
// `npm run test:heavy` (`node scripts/test.mjs heavy`): the scale and chaos tests and the soak, on PostgreSQL
// (TEST_DATABASE_URL, default the local server). Extra arguments go to vitest. Each step prints its duration, and the
// end names the slowest five test files, so that the next slow one is seen when it is added.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const heavy = process.argv[2] === "heavy";
const vitestArgs = process.argv.slice(heavy ? 3 : 2);

// The suite runs on the one Node the project pins (bin/with-node), so that what passes here is what runs in production.
const pinned = /^NODE_VERSION=(\S+)$/m.exec(readFileSync(join(root, "bin/with-node"), "utf8"))?.[1];
if (process.version !== `v${pinned}`) {
  console.error(`npm test runs on Node ${pinned}, the version the project pins; this is Node ${process.version.slice(1)}.`);
  console.error("Run it as `bin/with-node npm test`: bin/with-node fetches that Node once from the npm registry.");
  process.exit(1);
}
console.log(`▶ Node ${process.version} (${process.execPath})`);
const LOCAL_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test";
const testDatabaseUrl = process.env.TEST_DATABASE_URL || (heavy ? LOCAL_POSTGRES : "");
const onPostgres = /^postgres/.test(testDatabaseUrl);
const database = onPostgres ? "PostgreSQL" : "SQLite";
const set = heavy ? "heavy" : onPostgres ? "storage" : "all";
const env = { ...process.env, CHECKPOINT_DISABLE: "1", TEST_DATABASE_URL: testDatabaseUrl, RV_TEST_SET: set };

const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

function step(name, command, args, extraEnv = {}) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  console.log(`${result.status === 0 ? "✓" : "✗"} ${name}: ${seconds(started)}`);
  return result.status ?? 1;
}

function stepOrExit(...args) {
  const status = step(...args);
  if (status !== 0) process.exit(status);
}

/** The slowest test files of a Vitest JSON report, and its closing line ("N passed, N failed"). */
function readReport(report) {
  try {
    const { numPassedTests, numFailedTests, numPendingTests, testResults } = JSON.parse(readFileSync(report, "utf8"));
    const slowest = testResults
      .map((file) => ({ file: file.name.replace(root, ""), ms: file.endTime - file.startTime, tests: file.assertionResults.length }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5);
    return { passed: numPassedTests, failed: numFailedTests, skipped: numPendingTests, slowest };
  } catch {
    return { passed: 0, failed: 1, skipped: 0, slowest: [] };
  }
}

const started = Date.now();
stepOrExit(`prisma client for ${database}`, "node", ["scripts/db.mjs", "generate"], { DATABASE_URL: testDatabaseUrl || "file:./prisma/test-generate.sqlite" });
if (!heavy) {
  stepOrExit("format (prettier --check)", "node_modules/.bin/prettier", ["--check", "--log-level", "warn", "**/*.{ts,tsx,mjs,js,css,json}"]);
  stepOrExit("type-check (tsc --noEmit)", "node_modules/.bin/tsc", ["--noEmit"]);
  stepOrExit("lint (eslint)", "node_modules/.bin/eslint", ["--max-warnings", "0", "."]);
  stepOrExit("floors (app/)", "node", ["scripts/floors.mjs"]);
}

const report = join(mkdtempSync(join(tmpdir(), "rv-vitest-")), "report.json");
const vitestStatus = step(
  `vitest on ${database}: ${{ all: "every test file", storage: "the files that touch storage", heavy: "the heavy files" }[set]}`,
  "node_modules/.bin/vitest",
  // --retry=0: a test that fails is reported, never rerun until it passes (whatever a config says).
  ["run", "--retry=0", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...vitestArgs],
);
const result = readReport(report);
console.log("\nslowest test files:");
for (const { file, ms, tests } of result.slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file} (${tests} tests)`);

let status = vitestStatus;
if (heavy) {
  // The soak: worker processes killed with SIGKILL while Shopify fails and the database restarts (scripts/soak.ts).
  const soak = step(`soak on ${database}`, "node", ["--import", "tsx", "scripts/soak.ts"], onPostgres ? { SOAK_DATABASE_URL: testDatabaseUrl } : {});
  if (soak === 0) result.passed += 1;
  else result.failed += 1;
  status ||= soak;
}
console.log(`\n${heavy ? "heavy" : "npm test"} on ${database} in ${seconds(started)}`);
console.log(`${heavy ? "heavy" : "vitest"}: ${result.passed} passed, ${result.failed} failed${result.skipped ? `, ${result.skipped} skipped` : ""}`);
process.exit(status);
