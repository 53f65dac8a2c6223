import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

export const root = new URL("../..", import.meta.url).pathname;
const cli = join(root, "node_modules/.bin/shopify");
const cliVersion = (JSON.parse(readFileSync(join(root, "node_modules/@shopify/cli/package.json"), "utf8")) as { version: string }).version;

export interface CliRun {
  status: number | null;
  /** stdout and stderr as the developer sees them. */
  output: string;
  /** The output's words, without the boxes the CLI draws around messages (which break lines mid-sentence). */
  words: string;
  ms: number;
}

/**
 * Runs Shopify's CLI (the dev dependency, on this Node) as a developer would on a fresh clone, offline:
 * - its own config and caches in a fresh folder (nothing from this machine's earlier runs, nothing left behind);
 * - CI=1: no prompts, no notifications fetched, no auto-upgrade; SHOPIFY_CLI_NO_ANALYTICS=1: no analytics, no error reports;
 * - its check for a newer CLI (every command starts one, unawaited, cached for 24 h) asks a registry on loopback that
 *   answers the installed version: 4.8.2 with no registry at all exits 1 ("The `onCancel` handler was attached after the
 *   promise settled") whenever the failed lookup lands before the command ends.
 * Nothing else is inherited from this process's environment (no npm_config_*, no coding-agent variables that make the
 * CLI print hints).
 */
export async function runShopify(args: string[], cwd = root): Promise<CliRun> {
  const home = mkdtempSync(join(tmpdir(), "rv-shopify-cli-"));
  const registry = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({ name: "@shopify/cli", "dist-tags": { latest: cliVersion }, versions: { [cliVersion]: { name: "@shopify/cli", version: cliVersion } } }),
    );
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  const env: NodeJS.ProcessEnv = {
    // What the CLI's libraries assume when it is unset (vitest's "test" would reach the CLI's bundled React and Remix).
    NODE_ENV: "production",
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_CACHE_HOME: join(home, "cache"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
    CI: "1",
    SHOPIFY_CLI_NO_ANALYTICS: "1",
    NO_COLOR: "1",
    npm_config_registry: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`,
  };
  const started = Date.now();
  try {
    return await new Promise<CliRun>((resolve) => {
      execFile(cli, args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) => {
        const status = error ? (typeof error.code === "number" ? error.code : null) : 0;
        const output = `${stdout}${stderr}`;
        resolve({ status, output, words: output.replace(/[│╭╮╰╯─]/g, " ").replace(/\s+/g, " "), ms: Date.now() - started });
      });
    });
  } finally {
    registry.closeAllConnections();
    await new Promise((resolve) => registry.close(resolve));
  }
}

/** A copy of what the CLI reads (app and extension configuration, the block's source), for a run on a changed config. */
export function appConfigCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), "rv-app-copy-"));
  for (const file of ["shopify.app.toml", "shopify.web.toml", "package.json", "package-lock.json"]) cpSync(join(root, file), join(copy, file));
  cpSync(join(root, "extensions"), join(copy, "extensions"), {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|dist)$|[/\\]manifest\.json$/.test(source),
  });
  return copy;
}
