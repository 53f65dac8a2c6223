import { spawn, type ChildProcess } from "node:child_process";
import { TEST_APP } from "./credentials";

/** `npm run worker` as its own process on the test app's database, with a short lease. */
export function startWorkerProcess(databaseUrl: string, env: Record<string, string> = {}, stdio: "pipe" | "ignore" = "pipe"): ChildProcess {
  // node itself, with tsx as a loader: `tsx file` runs the script in a child process, and a
  // SIGKILL to tsx would leave that child running.
  return spawn("node", ["--import", "tsx", "scripts/worker.ts"], {
    cwd: new URL("../..", import.meta.url).pathname,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SHOPIFY_API_KEY: TEST_APP.apiKey,
      SHOPIFY_API_SECRET: TEST_APP.secret,
      SESSION_SECRET_KEY: TEST_APP.sessionSecretKey,
      VERIFIER_LEASE_MS: "1500",
      VERIFIER_SWEEP_INTERVAL_MS: "3600000",
      ...env,
    },
    stdio: ["ignore", stdio, stdio],
  });
}

export async function stopWorker(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const gone = new Promise((resolve) => worker.once("exit", resolve));
  worker.kill("SIGTERM");
  await gone;
}
