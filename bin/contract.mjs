#!/usr/bin/env node
// The `contract` command: runs the TypeScript CLI through tsx, so there is no separate build step.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

register();
const { runCli } = await import(fileURLToPath(new URL("../app/contracts/cli.ts", import.meta.url)));
const { stdout, stderr, exitCode } = runCli(process.argv.slice(2));
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = exitCode;
