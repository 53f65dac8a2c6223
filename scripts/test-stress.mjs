#!/usr/bin/env node
// `npm run test:stress`: the README's test command three times in a row (STRESS_RUNS) while a
// child process burns each core (STRESS_BURNERS, default one per core): the suite must pass on a
// busy machine, not only on an idle one. TEST_DATABASE_URL=postgresql://… runs it on PostgreSQL.
// Prints each run's result and duration; exits 1 if any run failed. Nothing is rerun.
import { spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";

const root = new URL("..", import.meta.url).pathname;
const runs = Number(process.env.STRESS_RUNS ?? 3);
const burnerCount = Number(process.env.STRESS_BURNERS ?? availableParallelism());
const database = /^postgres/.test(process.env.TEST_DATABASE_URL ?? "") ? "PostgreSQL" : "SQLite";

const burners = Array.from({ length: burnerCount }, () => spawn(process.execPath, ["-e", "for (;;) Math.sqrt(Math.random());"], { stdio: "ignore" }));
let current = null;
const stopBurners = () => burners.forEach((burner) => burner.kill("SIGKILL"));
process.on("exit", stopBurners);
// Stopping the stress stops the run in progress too (its own group: vitest, its workers, the app servers).
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    if (current) process.kill(-current.pid, "SIGKILL");
    process.exit(130);
  });

const results = [];
for (let run = 1; run <= runs; run++) {
  console.log(`\n▶ stressed run ${run} of ${runs} on ${database}, ${burnerCount} cores burned (load ${loadavg()[0].toFixed(1)})`);
  const started = Date.now();
  current = spawn(process.execPath, ["scripts/test.mjs", ...process.argv.slice(2)], { cwd: root, stdio: "inherit", detached: true });
  const status = await new Promise((resolve) => current.once("exit", (code) => resolve(code)));
  current = null;
  results.push({ run, passed: status === 0, seconds: Math.round((Date.now() - started) / 1000), load: loadavg()[0].toFixed(1) });
}
stopBurners();
console.log(`\nstressed runs on ${database} (${burnerCount} burners):`);
for (const r of results) console.log(`  run ${r.run}: ${r.passed ? "passed" : "FAILED"} in ${r.seconds} s (load average ${r.load} at its end)`);
process.exit(results.every((r) => r.passed) ? 0 : 1);
