import { execFile, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { FakeShopify } from "../fake-shopify/server";
import { TEST_APP } from "../test/support/credentials";
import { startWorkerProcess, stopWorker } from "../test/support/worker-process";
import { postgresDatabase, root, round, row, type BenchRow } from "./support";

const run = promisify(execFile);

const SHOPS = 10;

/**
 * 7. Verdicts per second for `refunds` refunds (10 shops, each with a Shopify Plus bucket: 2,000
 * points, 1,000 a second) with 1, 2 and 4 `npm run worker` processes on PostgreSQL. The refunds'
 * deliveries are stored as the intake stores them, made a minute ago (past the contract's stale read
 * window), so each worker opens, reads back and decides; the clock stops when the last is decided.
 * Two limits measured in the same run are the baselines: what the fake's buckets allow (their
 * restore rate over the points a verdict cost), and what the database takes of the same rows
 * written by batched statements with no logic between them.
 */
export async function benchWorkers(serverUrl: string, refunds: number): Promise<BenchRow[]> {
  const runs: Run[] = [];
  for (const processes of [1, 2, 4]) runs.push(await verdictsPerSecond(serverUrl, refunds, processes, processes === 1));
  const [one, two, four] = runs;
  const bucketLimit = round((SHOPS * RESTORE_RATE) / one.pointsPerVerdict, 0);
  const databaseLimit = one.databaseLimit!;
  const lower = Math.min(bucketLimit, databaseLimit);
  const lowerName = bucketLimit <= databaseLimit ? "the fake's buckets' limit" : "the database's limit";
  const note = (r: Run) => `${r.processes}: ${r.perSecond}/s (${r.seconds} s, ${r.throttled} requests into an empty bucket)`;
  const part = "7. workers (PostgreSQL)";
  const what = (processes: number) => `verdicts/s, ${refunds.toLocaleString("en-US")} refunds, ${processes} worker process${processes > 1 ? "es" : ""}`;
  return [
    row(
      part,
      what(1),
      one.perSecond,
      lower,
      "verdicts/s",
      `the lower limit (${lowerName})`,
      `${SHOPS} shops at a Plus bucket; ${runs.map(note).join("; ")}; ${one.cpuBound}`,
    ),
    row(
      part,
      "the fake's buckets' limit",
      bucketLimit,
      databaseLimit,
      "verdicts/s",
      "the database's limit",
      `buckets: ${SHOPS} shops × ${RESTORE_RATE} points/s ÷ ${one.pointsPerVerdict} points a verdict (actual cost; ${one.requestedPerVerdict} requested); database: the rows ${refunds.toLocaleString("en-US")} verdicts wrote, written again by the worker's batched statements, ${DATABASE_BATCH} verdicts a transaction`,
    ),
    row(part, what(2), two.perSecond, one.perSecond, "verdicts/s", "1 worker process"),
    row(part, what(4), four.perSecond, one.perSecond, "verdicts/s", "1 worker process"),
  ];
}

const RESTORE_RATE = 1000;
/** As many verdicts as a worker writes in one transaction (one shop's claim). */
const DATABASE_BATCH = 250;

interface Run {
  processes: number;
  perSecond: number;
  seconds: number;
  throttled: number;
  cpuBound: string;
  pointsPerVerdict: number;
  requestedPerVerdict: number;
  databaseLimit?: number;
}

/**
 * The database's limit: the rows the run's verdicts wrote, taken out and written again by the same
 * batched statements the worker uses, with no evaluation or read between them (a child process,
 * bench/database-limit-child.ts, for the PostgreSQL client).
 */
async function databaseLimit(url: string): Promise<number> {
  const { stdout } = await run("node", ["--import", "tsx", "bench/database-limit-child.ts", url, String(DATABASE_BATCH)], { cwd: root, maxBuffer: 1 << 20 });
  const { verdicts, seconds } = JSON.parse(stdout.trim().split("\n").pop()!) as { verdicts: number; seconds: number };
  return round(verdicts / seconds, 0);
}

async function verdictsPerSecond(serverUrl: string, refunds: number, processes: number, measureDatabase: boolean): Promise<Run> {
  const database = await postgresDatabase(serverUrl, `rv_bench_workers_${processes}`);
  const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 2000, restoreRate: RESTORE_RATE });
  const origin = await shopify.listen();
  const db = await database.prisma();
  const { installShop } = await import("../test/support/sessions");
  const { storeRefundDeliveries } = await import("../test/support/stored-deliveries");
  const workers: ChildProcess[] = [];
  try {
    const domains = Array.from({ length: SHOPS }, (_, s) => `bench-workers-${s}.myshopify.com`);
    for (const domain of domains) {
      shopify.addShop(domain);
      await installShop(db, shopify, domain);
      // A first sweep would read each shop's day of orders: these shops count as just swept.
      await db.shopState.create({ data: { shop: domain, lastSweepAt: new Date() } });
    }
    await storeRefundDeliveries(shopify, database.url, domains, refunds / SHOPS, new Date(Date.now() - 60_000));
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < processes; i++) {
      workers.push(
        startWorkerProcess(database.url, { SHOPIFY_APP_URL: "http://127.0.0.1", SHOPIFY_ADMIN_API_ORIGIN: origin, VERIFIER_LEASE_MS: "30000" }, "ignore"),
      );
    }
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const decided = await db.operation.count({ where: { status: { not: "PENDING" } } });
      if (decided >= refunds) break;
      if (Date.now() > deadline) throw new Error(`workers bench: ${decided} of ${refunds} decided in 10 minutes with ${processes} processes`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const total = (stat: "throttled" | "actualCost" | "requestedCost") =>
      [...shopify.shops.keys()].reduce((sum, domain) => sum + shopify.api(domain).stats[stat], 0);
    const throttled = total("throttled");
    const verified = await db.operation.count({ where: { status: "VERIFIED" } });
    if (verified !== refunds) throw new Error(`workers bench: ${verified} of ${refunds} verified`);
    const decidedTwice = await db.evaluation.groupBy({
      by: ["operationId"],
      where: { verdict: { not: "PENDING" } },
      having: { operationId: { _count: { gt: 1 } } },
    });
    if (decidedTwice.length) throw new Error(`workers bench: ${decidedTwice.length} refunds decided twice`);
    await Promise.all(workers.splice(0).map(stopWorker));
    return {
      processes,
      pointsPerVerdict: round(total("actualCost") / refunds, 2),
      requestedPerVerdict: round(total("requestedCost") / refunds, 2),
      databaseLimit: measureDatabase ? await databaseLimit(database.url) : undefined,
      perSecond: round(refunds / seconds, 0),
      seconds: round(seconds, 1),
      throttled,
      cpuBound: `the fake Shopify in the bench's process used ${round((cpu.user + cpu.system) / 1e6 / seconds, 2)} of a core during the 1-process run`,
    };
  } finally {
    await Promise.all(workers.map(stopWorker));
    await db.$disconnect();
    await shopify.close();
    await database.drop();
  }
}
