// `npm run bench`: every figure is a ratio against a baseline measured in the same run. Prints a
// table and writes bench/results.json. Loopback only, bounded in time.
import { execFileSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { writeFileSync } from "node:fs";
import pg from "pg";
import { root, type BenchRow } from "./support";

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const started = Date.now();
const rows: BenchRow[] = [];
const only = process.argv.slice(2);
const step = async (name: string, part: () => Promise<BenchRow[]> | BenchRow[]) => {
  if (only.length && !only.some((word) => name.toLowerCase().includes(word.toLowerCase()))) return;
  const t = Date.now();
  process.stderr.write(`▶ ${name}… `);
  rows.push(...(await part()));
  process.stderr.write(`${((Date.now() - t) / 1000).toFixed(0)} s\n`);
};

execFileSync("node", ["scripts/db.mjs", "generate"], { cwd: root, env: { ...process.env, DATABASE_URL: "file:./prisma/bench.sqlite" }, stdio: "ignore" });
execFileSync("node_modules/.bin/remix", ["vite:build"], { cwd: root, stdio: "ignore" });
// Imported once the Prisma client is generated for SQLite: a client left generated for PostgreSQL
// (by a PostgreSQL test run) would otherwise be the one loaded.
const { benchDashboardPostgres, benchDashboardSqlite } = await import("./dashboard");
const { benchEvaluate } = await import("./evaluate");
const { benchIntake, benchIntakePostgres } = await import("./intake");
const { benchLosslessJson } = await import("./lossless-json");
const { benchWorkers } = await import("./workers");
const { benchReadback } = await import("./readback");
const { benchSettlement } = await import("./settlement");
const { benchExposure } = await import("./exposure");
const { benchLimits } = await import("./limits");
const { benchTimeToVerdict } = await import("./time-to-verdict");
const { benchBackfill } = await import("./backfill");
const { benchVitals } = await import("./vitals");
const { benchFreeze } = await import("./freeze");

await step("4. contract evaluation", () => benchEvaluate());
await step("1. webhook intake, lossless JSON", () => benchLosslessJson());
await step("1. webhook intake", () => benchIntake(8));
await step("3. time to verdict", () => benchTimeToVerdict(100));
await step("2. readback, 1,000 refunds", () => benchReadback(1000));
await step("9. settlement, 1,000 refunds", () => benchSettlement(1000));
await step("11. exposure, 1,000 refunds", () => benchExposure(1000));
await step("12. refund limits, 2,000 refunds a day", () => benchLimits(POSTGRES));
await step("5. dashboard, SQLite", () => benchDashboardSqlite());
await step("6. history backfill, 20,000 refunds", () => benchBackfill(20_000));
await step("10. a page while a history is verified, 10,000 refunds", () => benchFreeze(10_000));
async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
if (await reachable(POSTGRES)) {
  // App and worker processes on PostgreSQL load the Prisma client from node_modules: generated for
  // PostgreSQL for these parts, and for SQLite again afterwards (the default for the rest of the tooling).
  const generateFor = (url: string) =>
    execFileSync("node", ["scripts/db.mjs", "generate"], { cwd: root, env: { ...process.env, DATABASE_URL: url }, stdio: "ignore" });
  generateFor(POSTGRES);
  try {
    await step("1. webhook intake, PostgreSQL", () => benchIntakePostgres(POSTGRES, 8));
    await step("7. workers, PostgreSQL", () => benchWorkers(POSTGRES, 10_000));
  } finally {
    generateFor("file:./prisma/bench.sqlite");
  }
  await step("5. dashboard, PostgreSQL", () => benchDashboardPostgres(POSTGRES));
} else {
  process.stderr.write(`PostgreSQL not reachable at ${POSTGRES}: its intake, workers and dashboard parts are skipped\n`);
}
await step("8. web vitals", () => benchVitals());

const machine = { cores: cpus().length, cpu: cpus()[0]?.model ?? "unknown", memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
const result = { measuredAt: new Date().toISOString(), seconds: Math.round((Date.now() - started) / 1000), machine, rows };
// A partial run (npm run bench -- intake) prints its rows but keeps the full results file.
if (!only.length) writeFileSync(`${root}bench/results.json`, `${JSON.stringify(result, null, 2)}\n`);

const fmt = (n: number) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString("en-US") : String(n));
const table = [
  "| part | metric | app | baseline | unit | ratio (app ÷ baseline) | baseline is |",
  "| --- | --- | ---: | ---: | --- | ---: | --- |",
  ...rows.map(
    (r) => `| ${r.part} | ${r.metric} | ${fmt(r.app)} | ${fmt(r.baseline)} | ${r.unit} | ${r.ratio ?? "n/a (baseline < 0.01)"} | ${r.baselineName} |`,
  ),
];
console.log(table.join("\n"));
console.log(`\n${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}; ${result.seconds} s in all. Notes:`);
for (const r of rows.filter((r) => r.note)) console.log(`- ${r.part}: ${r.note}`);
