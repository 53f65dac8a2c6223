#!/usr/bin/env node
// The `verifier` command for operators and support staff: reads the app's DATABASE_URL.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

register();
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { runVerifierCli, CliError } = await import(here("../app/cli/verifier.ts"));
const { createPrismaClient } = await import(here("../app/db/client.ts"));
const db = createPrismaClient();
try {
  process.stdout.write(await runVerifierCli(db, process.argv.slice(2)));
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  process.stderr.write(`verifier: ${error.message}\n`);
  process.exitCode = 2;
} finally {
  await db.$disconnect();
}
