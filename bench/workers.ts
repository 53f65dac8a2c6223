import type { ChildProcess } from "node:child_process";
import { FakeShopify } from "../fake-shopify/server";
import { refundWebhookBody } from "../fake-shopify/webhooks";
import { TEST_APP } from "../test/support/credentials";
import { startWorkerProcess, stopWorker } from "../test/support/worker-process";
import { postgresDatabase, round, row, type BenchRow } from "./support";

const SHOPS = 10;

/**
 * 7. Verdicts per second for `refunds` refunds (10 shops, each with a Shopify Plus bucket: 2,000
 * points, 1,000 a second) with 1, 2 and 4 `npm run worker` processes on PostgreSQL. The refunds'
 * deliveries are stored as the intake stores them, made a minute ago (past the contract's stale read
 * window), so each worker opens, reads back and decides; the clock stops when the last is decided.
 */
export async function benchWorkers(serverUrl: string, refunds: number): Promise<BenchRow[]> {
  const runs: { processes: number; perSecond: number; seconds: number; throttled: number; cpuBound: string }[] = [];
  for (const processes of [1, 2, 4]) runs.push({ processes, ...(await verdictsPerSecond(serverUrl, refunds, processes)) });
  const [one, two, four] = runs;
  const note = (r: (typeof runs)[number]) => `${r.processes}: ${r.perSecond}/s (${r.seconds} s, ${r.throttled} requests into an empty bucket)`;
  return [
    row(
      "7. workers (PostgreSQL)",
      `verdicts/s, ${refunds.toLocaleString("en-US")} refunds, 2 worker processes`,
      two.perSecond,
      one.perSecond,
      "verdicts/s",
      "1 worker process",
      `${SHOPS} shops at a Plus bucket; ${runs.map(note).join("; ")}; ${one.cpuBound}`,
    ),
    row(
      "7. workers (PostgreSQL)",
      `verdicts/s, ${refunds.toLocaleString("en-US")} refunds, 4 worker processes`,
      four.perSecond,
      one.perSecond,
      "verdicts/s",
      "1 worker process",
    ),
  ];
}

async function verdictsPerSecond(serverUrl: string, refunds: number, processes: number) {
  const database = await postgresDatabase(serverUrl, `rv_bench_workers_${processes}`);
  const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 2000, restoreRate: 1000 });
  const origin = await shopify.listen();
  const db = await database.prisma();
  const { openDeliveryStore } = await import("../app/webhooks/delivery-store.server");
  const { parseRefundWebhook } = await import("../app/webhooks/refund-payload");
  const { installShop } = await import("../test/support/sessions");
  const store = openDeliveryStore(database.url);
  const workers: ChildProcess[] = [];
  try {
    const minuteAgo = new Date(Date.now() - 60_000);
    for (let s = 0; s < SHOPS; s++) {
      const domain = `bench-workers-${s}.myshopify.com`;
      const shop = shopify.addShop(domain);
      await installShop(db, shopify, domain);
      // A first sweep would read each shop's day of orders: these shops count as just swept.
      await db.shopState.create({ data: { shop: domain, lastSweepAt: new Date() } });
      const batch = [];
      for (let i = 0; i < refunds / SHOPS; i++) {
        const order = shop.createOrder({ amount: "80.00" });
        const refund = shop.createRefund(order.id, { amount: `${1 + (i % 60)}.00`, createdAt: minuteAgo });
        const claim = parseRefundWebhook(refundWebhookBody(shop, refund));
        batch.push({
          shop: domain,
          webhookId: `w-${s}-${i}`,
          eventId: null,
          topic: "REFUNDS_CREATE",
          triggeredAt: minuteAgo,
          apiVersion: "2026-10",
          refundGid: claim.refundGid,
          orderGid: claim.orderGid,
          refundCreatedAt: new Date(claim.createdAt),
          amount: claim.amount,
          currency: claim.currency,
          receivedAt: minuteAgo,
        });
      }
      for (let i = 0; i < batch.length; i += 500) await store.store(batch.slice(i, i + 500));
    }
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
    const throttled = [...shopify.shops.keys()].reduce((sum, domain) => sum + shopify.api(domain).stats.throttled, 0);
    const verified = await db.operation.count({ where: { status: "VERIFIED" } });
    if (verified !== refunds) throw new Error(`workers bench: ${verified} of ${refunds} verified`);
    return {
      perSecond: round(refunds / seconds, 0),
      seconds: round(seconds, 1),
      throttled,
      cpuBound: `the fake Shopify in the bench's process used ${round((cpu.user + cpu.system) / 1e6 / seconds, 2)} of a core during the 1-process run`,
    };
  } finally {
    await Promise.all(workers.map(stopWorker));
    await store.close();
    await db.$disconnect();
    await shopify.close();
    await database.drop();
  }
}
