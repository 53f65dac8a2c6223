// `npm run soak`: 500 refunds verified by 2 worker processes (SOAK_WORKERS), killed with SIGKILL 20 times at
// random moments, Shopify misbehaves (THROTTLED, 429, 5xx, slow and truncated answers) and the
// database is locked for a while (SQLite) or restarted (PostgreSQL, with
// SOAK_DATABASE_URL=postgresql://…). Every refund must end with the verdict it would have had
// without all that: none lost, none decided twice, no request sent into an empty Shopify bucket,
// and the dashboard's rollup equal to a recount. Loopback only; gives up after 6 minutes.
import { execFileSync, type ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import pg from "pg";
import Database from "better-sqlite3";
import { FakeShopify, type Fault } from "../fake-shopify/server";
import type { FakeRefund } from "../fake-shopify/shop";
import { newDelivery, refundWebhookBody, sendDelivery, TOPIC_PATHS } from "../fake-shopify/webhooks";
import { TEST_APP } from "../test/support/credentials";
import { startWorkerProcess } from "../test/support/worker-process";
import { installShop } from "../test/support/sessions";
import { migrate, root, scratchSqlite } from "../bench/support";
import { startAppProcess } from "./demo-server";

const SHOP = "soak-shop.myshopify.com";
const REFUNDS = Number(process.env.SOAK_REFUNDS || 500);
const KILLS = Number(process.env.SOAK_KILLS || 20);
const WORKERS = Number(process.env.SOAK_WORKERS || 2);
const DEADLINE = Date.now() + 6 * 60_000;
const random = (() => {
  let seed = 42;
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
})();

const postgres = process.env.SOAK_DATABASE_URL;
let databaseUrl = scratchSqlite("soak");
if (postgres) {
  const admin = new pg.Client({ connectionString: postgres });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS rv_soak WITH (FORCE)`);
  await admin.query(`CREATE DATABASE rv_soak`);
  await admin.end();
  databaseUrl = Object.assign(new URL(postgres), { pathname: "/rv_soak" }).toString();
}
// The app, the workers and this script share node_modules' Prisma client: generate it for this database.
execFileSync("node", ["scripts/db.mjs", "generate"], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: "ignore" });
migrate(databaseUrl);
// Imported only now: the Prisma client module is bound to the provider it was generated for.
const { createPrismaClient } = await import("../app/lib/db/client");
const { rollupDrift } = await import("../app/dashboard/rollups.server");
const { databaseKind } = await import("../app/lib/db/url");
const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 2000, restoreRate: 1000 });
const shop = shopify.addShop(SHOP);
const origin = await shopify.listen();
const db = createPrismaClient(databaseUrl);
await installShop(db, shopify, SHOP);
const app = await startAppProcess({ port: "free", databaseUrl, shopifyOrigin: origin, log: "ignore", env: { VERIFIER_WORKER: "off" } });

function startWorker(): ChildProcess {
  return startWorkerProcess(
    databaseUrl,
    { SHOPIFY_APP_URL: app.url, SHOPIFY_ADMIN_API_ORIGIN: origin, VERIFIER_LEASE_MS: "2000", VERIFIER_REQUEST_TIMEOUT_MS: "1500" },
    "ignore",
  );
}

const expected = new Map<string, string>();
const gid = (refund: FakeRefund) => `gid://shopify/Refund/${refund.id}`;
let deliveries = 0;
let retriedDeliveries = 0;
async function deliver(refund: FakeRefund, times = 1) {
  const delivery = newDelivery("refunds/create", SHOP, refundWebhookBody(shop, refund));
  for (let i = 0; i < times; i++) {
    // As Shopify does: a delivery that fails (the database restarting) is sent again.
    for (let attempt = 1; ; attempt++) {
      const response = await sendDelivery(app.url, TOPIC_PATHS["refunds/create"], delivery, TEST_APP.secret).catch(() => undefined);
      if (response?.ok) break;
      if (attempt >= 20) throw new Error(`delivery refused 20 times: HTTP ${response?.status}`);
      retriedDeliveries++;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    deliveries++;
  }
}

const workers = Array.from({ length: WORKERS }, startWorker);
let kills = 0;
let faults = 0;
const startedAt = Date.now();
/** What the chaos did and when (ms since start), to explain a request that found the bucket empty. */
const events: { atMs: number; what: string }[] = [];
const happened = (what: string) => events.push({ atMs: Date.now() - startedAt, what });
const FAULTS: Fault[] = [
  { kind: "throttled" },
  { kind: "http", status: 429, retryAfter: "1" },
  { kind: "http", status: 429 },
  { kind: "http", status: 503 },
  { kind: "http", status: 500 },
  { kind: "slow", ms: 2_500 },
  { kind: "truncated" },
];
const chaos = setInterval(() => {
  if (kills < KILLS && random() < 0.5) {
    const victim = Math.floor(random() * workers.length);
    workers[victim].kill("SIGKILL");
    kills++;
    happened(`worker ${victim} killed`);
    workers[victim] = startWorker();
  }
  if (random() < 0.6) {
    const fault = FAULTS[Math.floor(random() * FAULTS.length)];
    const times = 1 + Math.floor(random() * 3);
    shopify.inject(fault, times);
    faults++;
    happened(`${times}× ${JSON.stringify(fault)}`);
  }
}, 700);

let created = 0;
for (let i = 0; created < REFUNDS; i++) {
  const order = shop.createOrder({ amount: "100.00" });
  const roll = random();
  if (roll < 0.06 && created + 2 <= REFUNDS) {
    const a = shop.createRefund(order.id, { amount: "10.00" });
    const b = shop.createRefund(order.id, { amount: "10.00" });
    // The first is the refund meant; the second, of the same amount moments later, its duplicate (contract 1.2.0).
    expected.set(gid(a), "VERIFIED").set(gid(b), "CONTRADICTED");
    await deliver(a);
    await deliver(b);
    created += 2;
  } else if (roll < 0.12) {
    const refund = shop.createRefund(order.id, { amount: "20.00", recordedAmount: "21.00" });
    expected.set(gid(refund), "CONTRADICTED");
    await deliver(refund);
    created++;
  } else if (roll < 0.18) {
    const refund = shop.createRefund(order.id, { amount: "20.00", status: "FAILURE" });
    expected.set(gid(refund), "FAILED");
    await deliver(refund);
    created++;
  } else {
    const refund = shop.createRefund(order.id, { amount: `${1 + (i % 50)}.00` });
    expected.set(gid(refund), "VERIFIED");
    await deliver(refund, roll > 0.95 ? 3 : 1);
    created++;
  }
  if (i === Math.floor(REFUNDS / 2)) {
    if (postgres) {
      // PostgreSQL restarted under the app and the workers.
      happened("PostgreSQL restart");
      execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", readdirSync("/etc/postgresql")[0], "main", "restart"], { stdio: "ignore" });
    } else {
      // The database, locked by another process's write transaction for 3 s.
      const lock = new Database(databaseUrl.slice("file:".length));
      lock.exec("BEGIN IMMEDIATE");
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      lock.exec("COMMIT");
      lock.close();
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 15));
}

// Chaos goes on until every kill has happened, then stops: the verdicts must converge.
while (kills < KILLS && Date.now() < DEADLINE) await new Promise((resolve) => setTimeout(resolve, 200));
clearInterval(chaos);
const calmFrom = Date.now();
const unsettled = async () => (await db.operation.count({ where: { status: "PENDING" } })) + (await db.webhookDelivery.count({ where: { openedAt: null } }));
while (Date.now() < DEADLINE && (await unsettled()) > 0) await new Promise((resolve) => setTimeout(resolve, 500));
const convergedIn = Math.round((Date.now() - calmFrom) / 1000);
for (const worker of workers) worker.kill("SIGTERM");
await new Promise((resolve) => setTimeout(resolve, 500));

const operations = await db.operation.findMany({ include: { evaluations: true } });
const wrong = operations.filter((op) => expected.get(op.refundGid) !== op.status);
const twice = operations.filter((op) => op.evaluations.filter((e) => e.verdict !== "PENDING").length > 1);
const lost = [...expected.keys()].filter((refund) => !operations.some((op) => op.refundGid === refund));
const failedReads = await db.observation.count({ where: { channel: "refund_readback", ok: false } });
const throttledViolations = shopify.api(SHOP).stats.throttled;
const chargedAfterGivingUp = shopify.api(SHOP).stats.chargedAfterClientLeft;
const drift = await rollupDrift(db, databaseKind(databaseUrl));
console.log(
  `soak: ${expected.size} refunds, ${deliveries} signed deliveries (redeliveries included), ${WORKERS} workers, ${kills} worker SIGKILLs, ${faults} fault bursts injected (${failedReads} failed reads recorded as such, never as evidence), ${throttledViolations} requests sent with an empty bucket (${chargedAfterGivingUp} charged after their worker gave up on them), ${postgres ? "PostgreSQL restarted once" : "database locked 3 s once"}, ${retriedDeliveries} deliveries sent again after a failure; all decided ${convergedIn} s after the chaos stopped`,
);
console.log(
  `soak: ${operations.length - wrong.length} of ${expected.size} with the verdict they should have; ${wrong.length} wrong, ${twice.length} decided twice, ${lost.length} lost`,
);
console.log(`soak: dashboard rollup ${drift.length ? `differs from a recount in ${drift.length} rows` : "equal to a recount of the operations"}`);
for (const d of drift.slice(0, 5)) console.log(`  rollup: ${d.key}: ${d.rollup}, recount ${d.recount}`);
for (const throttled of shopify.api(SHOP).throttleLog) {
  const atMs = throttled.atMs - startedAt;
  const before = events.filter((e) => e.atMs > atMs - 5_000 && e.atMs <= atMs).map((e) => `${((e.atMs - atMs) / 1000).toFixed(1)} s ${e.what}`);
  console.log(
    `  empty bucket at ${(atMs / 1000).toFixed(1)} s: cost ${throttled.cost}, available ${throttled.available}; before it: ${before.join("; ") || "nothing"}`,
  );
  for (const charge of shopify.api(SHOP).recentCharges.filter((c) => c.atMs > throttled.atMs - 3_000 && c.atMs <= throttled.atMs))
    console.log(
      `    charged ${((charge.atMs - throttled.atMs) / 1000).toFixed(3)} s: ${charge.operation} ${charge.cost}, left ${charge.left}${charge.clientGone ? ", its worker had given up on it" : ""}`,
    );
}
// The last refunds to settle, and what kept them: their evaluations after the chaos stopped.
const last = operations.filter((op) => op.decidedAt && op.decidedAt.getTime() > calmFrom).sort((a, b) => b.decidedAt!.getTime() - a.decidedAt!.getTime());
for (const op of last.slice(0, 3)) {
  const after = op.evaluations
    .map((e) => `${((e.evaluatedAt.getTime() - calmFrom) / 1000).toFixed(1)} s ${e.verdict}`)
    .sort()
    .join(", ");
  console.log(
    `  settled last: ${op.refundGid} at ${((op.decidedAt!.getTime() - calmFrom) / 1000).toFixed(1)} s (attempts ${op.attempts}, failed reads in a row ${op.readFailures}); evaluations: ${after}`,
  );
}
for (const op of wrong.slice(0, 5)) console.log(`  wrong: ${op.refundGid} expected ${expected.get(op.refundGid)} got ${op.status} (${op.reason})`);
await db.$disconnect();
await app.stop();
await shopify.close();
if (postgres) {
  const admin = new pg.Client({ connectionString: postgres });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS rv_soak WITH (FORCE)`);
  await admin.end();
  // Back to the default (SQLite) client for the rest of the tooling.
  execFileSync("node", ["scripts/db.mjs", "generate"], { cwd: root, env: { ...process.env, DATABASE_URL: "" }, stdio: "ignore" });
}
const ok =
  wrong.length === 0 && twice.length === 0 && lost.length === 0 && operations.length === expected.size && throttledViolations === 0 && drift.length === 0;
console.log(ok ? "soak: 1 passed, 0 failed" : "soak: 0 passed, 1 failed");
process.exit(ok ? 0 : 1);
