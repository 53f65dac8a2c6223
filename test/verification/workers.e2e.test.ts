import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkerProcess, stopWorker } from "../support/worker-process";
import { waitFor } from "../support/wait";
import { QUERY_COSTS } from "../../app/shopify/admin/documents";
import { batchSize } from "../../app/shopify/admin/refund-readback.server";
import { refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import { decideFleetOnce, FLEET_TIMEOUT_MS } from "../support/fleet";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("workers-shop.myshopify.com");
  // The workers here are processes of their own, on the wall clock.
  h.useWallClock();
});
afterAll(async () => h.close());

async function deliverRefunds(count: number) {
  const refunds = [];
  for (let i = 0; i < count; i++) {
    const order = h.shop.createOrder({ amount: "50.00" });
    const refund = h.shop.createRefund(order.id, { amount: `${1 + (i % 40)}.00` });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    refunds.push(refund);
  }
  return refunds.map((r) => refundGid(r.id));
}

/**
 * A shop's first sweep reads every order of the last 24 hours (712 points a page); these tests
 * are about claims and read-back batching, so the shop counts as just swept.
 */
async function markSwept() {
  const lastSweepAt = new Date();
  await h.db.shopState.upsert({ where: { shop: h.domain }, create: { shop: h.domain, lastSweepAt }, update: { lastSweepAt, sweepRequested: false } });
}

async function finalEvaluations(gids: string[]) {
  const ops = await h.db.operation.findMany({ where: { refundGid: { in: gids } }, include: { evaluations: true } });
  return ops.map((op) => ({ status: op.status, finals: op.evaluations.filter((e) => e.verdict !== "PENDING").length }));
}

const startWorker = () => startWorkerProcess(h.app.databaseUrl);

describe("two worker processes on one database", () => {
  it("give each operation exactly one verdict", async () => {
    await markSwept();
    const workers = [startWorker(), startWorker()];
    try {
      const gids = await deliverRefunds(40);
      await waitFor(
        "40 verdicts and their evaluations",
        async () => (await h.db.evaluation.count({ where: { operation: { refundGid: { in: gids } }, verdict: { not: "PENDING" } } })) >= 40,
        45_000,
      );
      const results = await finalEvaluations(gids);
      expect(results).toHaveLength(40);
      expect(results.every((r) => r.status === "VERIFIED" && r.finals === 1)).toBe(true);
      // Each attempt is evaluated once: a second claim of the same attempt by the other worker would
      // add an evaluation of it. A refund is read a second after it was created (a provisional
      // VERIFIED, inside the stale read window) and again once the window has passed; on a busy
      // machine its first read may come after the window, and then that one read decides it.
      const operations = await h.db.operation.findMany({ where: { refundGid: { in: gids } }, include: { evaluations: true } });
      const wrong = operations.filter((op) => {
        const attempts = op.evaluations.map((e) => e.attempt);
        const firstInWindow = Math.min(...op.evaluations.map((e) => e.evaluatedAt.getTime())) < op.startedAt.getTime() + 20_000;
        return new Set(attempts).size !== attempts.length || attempts.length !== op.attempts || attempts.length !== (firstInWindow ? 2 : 1);
      });
      expect(wrong.map((op) => `${op.refundGid}: attempts ${op.evaluations.map((e) => e.attempt).join(",")}`)).toEqual([]);
    } finally {
      await Promise.all(workers.map(stopWorker));
    }
  });
});

describe("four worker processes on one database, as on four machines", () => {
  // 2,000 here, on both databases; `npm run test:heavy` runs the same with 10,000 on PostgreSQL (test/heavy/).
  it("decide each of 2,000 operations exactly once, and never send a request into an empty bucket", { timeout: FLEET_TIMEOUT_MS }, () =>
    decideFleetOnce(h, 200),
  );
});

describe("a worker process killed mid-attempt", () => {
  it("loses nothing: the next worker takes the operation over after the lease and verifies it once", async () => {
    const order = h.shop.createOrder({ amount: "50.00" });
    const refund = h.shop.createRefund(order.id, { amount: "12.00" });
    const requestsBefore = h.app.shopify.api(h.domain).stats.graphqlRequests;
    // Its read-back reaches Shopify and stays unanswered until the worker is dead.
    h.app.shopify.inject({ kind: "held" });
    await h.deliver(h.refundDelivery(refund));
    const first = startWorker();
    await waitFor(
      "the first worker's read-back to be in flight",
      async () =>
        h.app.shopify.heldAnswers.held === 1 && (await h.db.operation.findFirst({ where: { refundGid: refundGid(refund.id), claimedBy: { not: null } } })),
    );
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    h.app.shopify.heldAnswers.open();
    expect(() => process.kill(first.pid!, 0)).toThrow();
    const claimed = await h.db.operation.findFirstOrThrow({ where: { refundGid: refundGid(refund.id) } });
    expect(claimed.status).toBe("PENDING");
    expect(claimed.claimedBy).toMatch(/^worker-/);

    const second = startWorker();
    try {
      const op = await waitFor(
        "the verdict",
        async () => {
          const row = await h.db.operation.findFirst({
            where: { refundGid: refundGid(refund.id), status: { not: "PENDING" } },
            include: { evaluations: true },
          });
          return row?.evaluations.some((e) => e.verdict !== "PENDING") ? row : undefined;
        },
        40_000,
      );
      expect(op.status).toBe("VERIFIED");
      expect(op.evaluations.filter((e) => e.verdict !== "PENDING")).toHaveLength(1);
      expect(h.app.shopify.api(h.domain).stats.graphqlRequests).toBeGreaterThan(requestsBefore);
    } finally {
      await stopWorker(second);
    }
  });
});

describe("a burst of refunds", () => {
  it("is read back in batches: far fewer GraphQL requests than refunds", async () => {
    await markSwept();
    const before = { ...h.worker.gateway.stats, byOperation: { ...h.worker.gateway.stats.byOperation } };
    const gids = await deliverRefunds(200);
    // The worker opens their operations (the intake only stores deliveries).
    await h.worker.runOnce();
    // Refunds carry Shopify's whole-second created_at, so they fall due in as many instants as the
    // burst took seconds to deliver (3 here when the machine is quiet, more when it is busy).
    // (On a busy machine the first refunds may be past their window already, and decided in that pass: one instant more.)
    const dueInstants = new Set(
      (await h.db.operation.findMany({ where: { refundGid: { in: gids } }, select: { nextDueAt: true } })).map((op) => op.nextDueAt?.getTime() ?? "decided"),
    ).size;
    await h.settle();
    const results = await finalEvaluations(gids);
    expect(results.every((r) => r.status === "VERIFIED")).toBe(true);
    // The read-back's requests (the money passes read the verified refunds' orders on their own).
    const readbacks = (stats: { byOperation: Record<string, number> }) => stats.byOperation.RefundReadback ?? 0;
    const requests = readbacks(h.worker.gateway.stats) - readbacks(before);
    // Each instant's refunds are read together, in batches of at most 1,000 points, twice (a first
    // read, and one at the stale window's end): a request per refund would be 400.
    const batches = dueInstants + Math.ceil(gids.length / batchSize(QUERY_COSTS.refundReadbackPerRefund));
    expect(requests).toBeLessThanOrEqual(2 * batches);
    expect(requests).toBeLessThan(gids.length / 5);
    expect(h.worker.gateway.stats.requestedCost - before.requestedCost).toBeLessThanOrEqual((h.worker.gateway.stats.requests - before.requests) * 1000);
  });
});
