import { Worker } from "node:worker_threads";
import { createPrismaClient } from "../app/lib/db/client";
import { requestBackfill } from "../app/backfill/request.server";
import { FakeShopify } from "../fake-shopify/server";
import { seedHistory } from "../fake-shopify/history";
import { startAppProcess } from "../scripts/demo-server";
import { TEST_APP } from "../test/support/credentials";
import { installShop } from "../test/support/sessions";
import { migrate, quantile, round, row, scratchSqlite, type BenchRow } from "./support";

// The prober runs on a thread of its own: the fake Shopify shares the bench's main thread (it builds
// a history's bulk result synchronously), and its pauses are not the app's.
const PROBER = `
const { parentPort, workerData } = require("node:worker_threads");
const times = [];
let stopped = false;
parentPort.on("message", () => (stopped = true));
(async () => {
  const end = Date.now() + workerData.ms;
  while (!stopped && Date.now() < end) {
    const started = performance.now();
    const response = await fetch(workerData.url + "/healthz");
    await response.text();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  parentPort.postMessage(times);
})();
`;

/** One /healthz request after another, on their own thread, for `ms` or until `until()` says stop: each one's time to its answer. */
async function healthzTimes(url: string, ms: number, until: () => Promise<boolean> = async () => false): Promise<number[]> {
  const prober = new Worker(PROBER, { eval: true, workerData: { url, ms } });
  const times = new Promise<number[]>((resolve, reject) => {
    prober.once("message", resolve);
    prober.once("error", reject);
  });
  const end = Date.now() + ms;
  let finished = false;
  void times.then(() => (finished = true));
  while (!finished && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (await until()) break;
  }
  prober.postMessage("stop");
  const result = await times;
  await prober.terminate();
  return result;
}

/**
 * 10. Nothing one shop does stops another: the app on SQLite, its worker inside the web process
 * (the default), verifies a shop's history of `count` refunds while another client asks /healthz
 * one request after another. The slowest answer is set against the slowest of the same requests
 * to the idle app, in the same run.
 */
export async function benchFreeze(count: number): Promise<BenchRow[]> {
  const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 1e9, restoreRate: 1e9 });
  const origin = await shopify.listen();
  const shop = "bench-freeze.myshopify.com";
  seedHistory(shopify.addShop(shop), count, { days: 50 });
  const databaseUrl = scratchSqlite("freeze");
  migrate(databaseUrl);
  const db = createPrismaClient(databaseUrl);
  await installShop(db, shopify, shop);
  // The sweep would read the shop's recent orders first: the shop counts as just swept.
  await db.shopState.create({ data: { shop, lastSweepAt: new Date() } });
  const app = await startAppProcess({ port: "free", databaseUrl, shopifyOrigin: origin, log: "ignore", env: { BACKFILL_POLL_MS: "200", LOG_LEVEL: "warn" } });
  try {
    const idle = await healthzTimes(app.url, 5_000);
    const { backfill } = await requestBackfill(db, shop, 60, "cli", new Date());
    const started = Date.now();
    const done = async () => {
      const state = (await db.backfill.findUniqueOrThrow({ where: { id: backfill.id } })).state;
      if (state === "failed") throw new Error("freeze bench: the backfill failed");
      return state === "done";
    };
    const busy = await healthzTimes(app.url, 10 * 60_000, done);
    if (!(await done())) throw new Error("freeze bench: the backfill did not end in 10 minutes");
    const seconds = (Date.now() - started) / 1000;
    const verified = await db.operation.count({ where: { shop, status: { not: "PENDING" } } });
    const note = `the app on SQLite with its worker in the web process; ${verified} refunds verified from the history in ${round(seconds, 1)} s while /healthz was asked ${busy.length} times (p99 ${round(quantile(busy, 0.99), 0)} ms; idle p99 ${round(quantile(idle, 0.99), 0)} ms)`;
    const baseline = "the slowest /healthz of the idle app, the same requests";
    return [
      row(
        "10. a page while a history is verified",
        `slowest /healthz, ${count.toLocaleString("en-US")} refunds`,
        Math.max(...busy),
        Math.max(...idle),
        "ms",
        baseline,
        note,
      ),
    ];
  } finally {
    await app.stop();
    await db.$disconnect();
    await shopify.close();
  }
}
