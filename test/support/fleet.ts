import { expect } from "vitest";
import { installShop } from "./sessions";
import { storeRefundDeliveries } from "./stored-deliveries";
import type { VerificationHarness } from "./verification";
import { waitFor } from "./wait";
import { startWorkerProcess, stopWorker } from "./worker-process";

/** A hang guard only: 10,000 verdicts take 25-90 s on PostgreSQL on a 2-core machine. */
export const FLEET_TIMEOUT_MS = 10 * 60_000;

/**
 * Four worker processes on one database, as on four machines, decide ten shops' refunds (`perShop`
 * each): every operation exactly once, and no request sent into an empty Shopify bucket. The
 * suite runs it with 2,000 on both databases; `npm run test:heavy` with 10,000 on PostgreSQL,
 * where workers on many machines share a database.
 */
export async function decideFleetOnce(h: VerificationHarness, perShop: number): Promise<void> {
  // Ten shops (a Plus bucket each), their refunds made a minute ago: past the stale read window,
  // so each refund's one read decides it, and a second decision would be a second evaluation.
  const domains = Array.from({ length: 10 }, (_, i) => `fleet-${i}.myshopify.com`);
  for (const domain of domains) {
    h.app.shopify.addShop(domain);
    await installShop(h.db, h.app.shopify, domain);
    await h.db.shopState.upsert({ where: { shop: domain }, create: { shop: domain, lastSweepAt: new Date() }, update: { lastSweepAt: new Date() } });
  }
  const gids = await storeRefundDeliveries(h.app.shopify, h.app.databaseUrl, domains, perShop, new Date(Date.now() - 60_000));
  // Their logs (a line a verdict) are not read here: a pipe nobody reads fills and stops them.
  const workers = Array.from({ length: 4 }, () => startWorkerProcess(h.app.databaseUrl, {}, "ignore"));
  try {
    const fleet = { shop: { in: domains } };
    // Verdicts and the evaluations that explain them: on SQLite a batch's evidence is written just after its verdicts
    // (decision 024), and on a loaded machine the workers could be stopped in between.
    const decided = async () =>
      (await h.db.operation.count({ where: { ...fleet, status: { not: "PENDING" } } })) >= gids.length &&
      (await h.db.evaluation.count({ where: { operation: fleet, verdict: { not: "PENDING" } } })) >= gids.length;
    await waitFor(`${gids.length} verdicts and their evaluations`, decided, FLEET_TIMEOUT_MS - 60_000);
  } finally {
    await Promise.all(workers.map(stopWorker));
  }
  const operations = await h.db.operation.findMany({ where: { shop: { in: domains } }, select: { refundGid: true, status: true } });
  expect(operations.length).toBe(gids.length);
  expect(new Set(operations.map((op) => op.refundGid))).toEqual(new Set(gids));
  expect(operations.filter((op) => op.status !== "VERIFIED")).toEqual([]);
  const evaluations = await h.db.evaluation.groupBy({
    by: ["operationId"],
    where: { operation: { shop: { in: domains } }, verdict: { not: "PENDING" } },
    _count: { _all: true },
  });
  expect(evaluations.length).toBe(gids.length);
  expect(evaluations.filter((e) => e._count._all !== 1)).toEqual([]);
  expect(domains.map((domain) => h.app.shopify.api(domain).stats.throttled)).toEqual(domains.map(() => 0));
}
