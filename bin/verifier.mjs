#!/usr/bin/env node
// The `verifier` command for operators and support staff: reads the app's DATABASE_URL.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

register();
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { runVerifierCli, CliError } = await import(here("../app/cli/verifier.ts"));
const { createPrismaClient } = await import(here("../app/lib/db/client.ts"));
const db = createPrismaClient();
// The backfill reads Shopify with the shop's offline session, as the app's worker does.
let appDatabaseUsed = false;
const gateway = async () => {
  appDatabaseUsed = true;
  // Shopify's libraries log to stdout with console.log ("[shopify-api/INFO] version …"): stdout is the command's output.
  console.log = (...args) => console.error(...args);
  const { ShopifyGateway } = await import(here("../app/shopify/admin/gateway.server.ts"));
  const { offlineGraphql } = await import(here("../app/shopify.server.ts"));
  return new ShopifyGateway(offlineGraphql);
};
// On a terminal the progress line is rewritten in place; in a log, each new state is a line.
const progress = (line) => process.stderr.write(process.stderr.isTTY ? `\r\x1b[2K${line.trimEnd()}` : line);
try {
  const output = await runVerifierCli(db, process.argv.slice(2), new Date(), { gateway, progress });
  if (process.stderr.isTTY) process.stderr.write("\n");
  process.stdout.write(output);
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  process.stderr.write(`verifier: ${error.message}\n`);
  process.exitCode = 2;
} finally {
  await db.$disconnect();
  // The offline sessions are read through the app's own client: it goes too, or its pool keeps the process alive.
  if (appDatabaseUsed) await (await import(here("../app/db.server.ts"))).default.$disconnect();
}
