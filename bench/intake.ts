import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { FakeShopify } from "../fake-shopify/server";
import { startAppProcess } from "../scripts/demo-server";
import { installShop } from "../test/support/sessions";
import { TEST_APP } from "../test/support/credentials";
import { freePort, migrate, offerLoad, postgresDatabase, row, scratchSqlite, startBareServer, type BenchRow, type LoadResult } from "./support";

const SHOP = "bench-intake.myshopify.com";
const FIXED_RATE = 1000;

type Load = (options: { rate?: number; connections?: number; ackFile?: string; seconds?: number }) => Promise<LoadResult>;

/** The app on `databaseUrl` (WEB_CONCURRENCY processes, worker off) with an installed shop, and a way to offer it signed deliveries. */
async function intakeApp(databaseUrl: string, processes: number, install: (shopify: FakeShopify) => Promise<void>, seconds: number) {
  const shopify = new FakeShopify(TEST_APP);
  shopify.addShop(SHOP);
  const origin = await shopify.listen();
  // Installed, as Shopify sends webhooks only then (a delivery for another shop is stored nowhere).
  await install(shopify);
  const app = await startAppProcess({
    port: "free",
    databaseUrl,
    shopifyOrigin: origin,
    log: "ignore",
    env: { VERIFIER_WORKER: "off", WEB_CONCURRENCY: String(processes) },
  });
  const url = `${app.url.replace("localhost", "127.0.0.1")}/webhooks/refunds/create`;
  const load: Load = (o) =>
    offerLoad({ url, secret: TEST_APP.secret, shop: SHOP, seconds: o.seconds ?? seconds, connections: o.connections ?? 10, rate: o.rate, ackFile: o.ackFile });
  // A first run warms the processes (JIT, connections) before anything is measured.
  await load({});
  return {
    load,
    stop: async () => {
      await app.stop();
      await shopify.close();
    },
  };
}

function refusedNone(name: string, r: LoadResult) {
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`intake bench: ${name} answered ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
}

/** 1. Signed refunds/create deliveries through the app (`npm start`, SQLite) vs a bare HMAC-checking server. */
export async function benchIntake(seconds: number): Promise<BenchRow[]> {
  const databaseUrl = scratchSqlite("intake");
  migrate(databaseUrl);
  const { createPrismaClient } = await import("../app/lib/db/client");
  const db = createPrismaClient(databaseUrl);
  const app = await intakeApp(databaseUrl, 1, (shopify) => installShop(db, shopify, SHOP).then(() => undefined), seconds);
  const bare = await startBareServer(await freePort(), TEST_APP.secret);
  const bareLoad: Load = (o) => offerLoad({ url: bare.url, secret: TEST_APP.secret, shop: SHOP, seconds, connections: o.connections ?? 10, rate: o.rate });
  try {
    await bareLoad({});
    const [appMax, bareMax] = [await app.load({}), await bareLoad({})];
    const [appFixed, bareFixed] = [await app.load({ rate: FIXED_RATE }), await bareLoad({ rate: FIXED_RATE })];
    // One connection at 100 a second: Shopify's deliveries one after another, no burst queueing.
    const [appSteady, bareSteady] = [await app.load({ rate: 100, connections: 1 }), await bareLoad({ rate: 100, connections: 1 })];
    for (const [name, r] of [
      ["app", appMax],
      ["app at fixed load", appFixed],
      ["app, one connection", appSteady],
    ] as const)
      refusedNone(name, r);
    const deliveries = await db.webhookDelivery.count();
    if (deliveries < appMax.requests) throw new Error(`intake bench: ${deliveries} deliveries stored for ${appMax.requests} accepted`);
    const note = `${seconds} s per run, 10 connections, unique signed deliveries of an installed shop, each stored (one row, group commit) before its 200 (${deliveries} stored), worker off`;
    const bareName = "bare HMAC-checking Node server";
    return [
      row("1. webhook intake (SQLite)", "deliveries/s, unbounded", appMax.rps, bareMax.rps, "req/s", bareName, note),
      row("1. webhook intake (SQLite)", `p50 latency at ${FIXED_RATE.toLocaleString("en-US")} req/s`, appFixed.p50, bareFixed.p50, "ms", bareName),
      row("1. webhook intake (SQLite)", `p99 latency at ${FIXED_RATE.toLocaleString("en-US")} req/s`, appFixed.p99, bareFixed.p99, "ms", bareName),
      row("1. webhook intake (SQLite)", "p99 latency at 100 req/s, 1 connection", appSteady.p99, bareSteady.p99, "ms", bareName),
    ];
  } finally {
    await app.stop();
    await bare.stop();
    await db.$disconnect();
  }
}

/**
 * 1b. The same on PostgreSQL with 1 and 2 app processes, and the server restarted in the middle
 * of a run: every delivery the app answered 200 must be in the database afterwards.
 */
export async function benchIntakePostgres(serverUrl: string, seconds: number): Promise<BenchRow[]> {
  const bare = await startBareServer(await freePort(), TEST_APP.secret);
  const rows: BenchRow[] = [];
  try {
    const bareMax = await offerLoad({ url: bare.url, secret: TEST_APP.secret, shop: SHOP, seconds, connections: 10 });
    const results: LoadResult[] = [];
    for (const processes of [1, 2]) {
      const database = await postgresDatabase(serverUrl, `rv_bench_intake_${processes}`);
      const db = await database.prisma();
      const app = await intakeApp(database.url, processes, (shopify) => installShop(db, shopify, SHOP).then(() => undefined), seconds);
      try {
        const max = await app.load({});
        const fixed = await app.load({ rate: FIXED_RATE });
        refusedNone(`app on PostgreSQL, ${processes} processes`, max);
        refusedNone(`app on PostgreSQL, ${processes} processes, fixed load`, fixed);
        results.push(max);
        const name = `${processes} app process${processes > 1 ? "es" : ""}`;
        rows.push(row("1. webhook intake (PostgreSQL)", `deliveries/s, unbounded, ${name}`, max.rps, bareMax.rps, "req/s", "bare HMAC-checking Node server"));
        rows.push(
          row("1. webhook intake (PostgreSQL)", `p99 latency at ${FIXED_RATE.toLocaleString("en-US")} req/s, ${name}`, fixed.p99, 20, "ms", "the goal (20 ms)"),
        );
        if (processes === 1) rows.push(...(await restartDuringLoad(app.load, db)));
      } finally {
        await app.stop();
        await db.$disconnect();
        await database.drop();
      }
    }
    rows.push(
      row(
        "1. webhook intake (PostgreSQL)",
        "deliveries/s, 2 app processes against 1",
        results[1].rps,
        results[0].rps,
        "req/s",
        "1 app process",
        "2 cores run the load generator, the app processes and PostgreSQL: a second app process competes with them for the same cores",
      ),
    );
    return rows;
  } finally {
    await bare.stop();
  }
}

/** PostgreSQL restarted 2 s into a run at 1,000 deliveries/s: the deliveries answered 200 are all stored. */
async function restartDuringLoad(load: Load, db: PrismaClient): Promise<BenchRow[]> {
  let cluster: string;
  try {
    cluster = readdirSync("/etc/postgresql")[0];
    execFileSync("pg_lsclusters", [], { stdio: "ignore" });
  } catch {
    process.stderr.write("(no local PostgreSQL cluster to restart: the restart part is skipped) ");
    return [];
  }
  const ackFile = join(mkdtempSync(join(tmpdir(), "rv-acks-")), "acks.txt");
  const before = await db.webhookDelivery.count();
  const running = load({ rate: FIXED_RATE, ackFile, seconds: 10 });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", cluster, "main", "restart"], { stdio: "ignore" });
  const result = await running;
  const acknowledged = readFileSync(ackFile, "utf8").split("\n").filter(Boolean);
  // The bench's own connections were cut by the restart too: the first query may meet a dead one.
  const count = async (ids: string[]): Promise<number> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await db.webhookDelivery.count({ where: { webhookId: { in: ids } } });
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };
  let stored = 0;
  for (let i = 0; i < acknowledged.length; i += 1000) stored += await count(acknowledged.slice(i, i + 1000));
  const refused = result.non2xx + result.errors;
  if (stored !== acknowledged.length)
    throw new Error(`intake bench: ${acknowledged.length - stored} of ${acknowledged.length} acknowledged deliveries lost across a PostgreSQL restart`);
  return [
    row(
      "1. webhook intake (PostgreSQL)",
      "acknowledged deliveries stored, PostgreSQL restarted mid-run",
      stored,
      acknowledged.length,
      "deliveries",
      "deliveries answered 200",
      `${result.requests} offered at ${FIXED_RATE}/s for 10 s, PostgreSQL restarted after 2 s: ${acknowledged.length} answered 200, ${refused} refused while it was down (Shopify delivers those again), ${before} stored before the run`,
    ),
  ];
}
