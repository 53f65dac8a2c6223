import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import { reloadConfig } from "../../app/lib/config/env.server";

let h: VerificationHarness;
beforeAll(async () => {
  process.env.VERIFIER_REQUEST_TIMEOUT_MS = "1000";
  reloadConfig();
  h = await startVerificationHarness("faults-shop.myshopify.com");
  // The faults are for the read-back: a first sweep would meet them first (and wait them out).
  await h.db.shopState.create({ data: { shop: h.domain, lastSweepAt: h.clock.now() } });
});
afterAll(async () => h.close());

async function verifyWithFaults(setup: () => void, amount = "25.00", status?: "FAILURE") {
  const order = h.shop.createOrder({ amount: "100.00" });
  const refund = h.shop.createRefund(order.id, { amount, status });
  setup();
  await h.deliver(h.refundDelivery(refund));
  await h.settle();
  return operationFor(h.db, refundGid(refund.id));
}

describe("Shopify misbehaving delays the verdict but never changes it", () => {
  it.each([
    ["THROTTLED (HTTP 200)", () => h.app.shopify.inject({ kind: "throttled" }, 3)],
    ["HTTP 429 with Retry-After", () => h.app.shopify.inject({ kind: "http", status: 429, retryAfter: "2" }, 2)],
    ["HTTP 429 without Retry-After", () => h.app.shopify.inject({ kind: "http", status: 429 }, 2)],
    ["HTTP 500 and 503", () => (h.app.shopify.inject({ kind: "http", status: 500 }), h.app.shopify.inject({ kind: "http", status: 503 }, 2))],
    ["truncated JSON", () => h.app.shopify.inject({ kind: "truncated" }, 2)],
    ["an answer slower than the request timeout", () => h.app.shopify.inject({ kind: "slow", ms: 1500 })],
  ])("%s: still VERIFIED, the errors recorded as failed observations and no attempt", async (_name, inject) => {
    const op = await verifyWithFaults(inject);
    expect(h.app.shopify.pendingFaults()).toBe(0);
    expect(op.status).toBe("VERIFIED");
    // The faults cost no attempt: only the reads Shopify answered count.
    const answered = op.observations.filter((o) => o.channel === "refund_readback" && o.ok);
    expect(op.attempts).toBe(answered.length);
    const failed = op.observations.filter((o) => o.channel === "refund_readback" && !o.ok);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((o) => o.data === null && o.error)).toBe(true);
    const pendingEvaluations = op.evaluations.filter((e) => e.verdict === "PENDING");
    expect(pendingEvaluations).toHaveLength(op.evaluations.length - 1);
  });

  it("errors never turn a FAILED refund into anything else", async () => {
    const op = await verifyWithFaults(() => h.app.shopify.inject({ kind: "http", status: 502 }, 3), "30.00", "FAILURE");
    expect(op.status).toBe("FAILED");
  });

  it("backs off: a failed read waits before the next, doubling", async () => {
    // The test's clock stands still: the gaps read below are the worker's own.
    h.clock.freeze();
    // A refund made 30 s ago, past its stale read window: its first read is due at once, and the read that finally succeeds decides it.
    const order = h.shop.createOrder({ amount: "100.00", createdAt: new Date(h.clock.ms - 60_000) });
    const refund = h.shop.createRefund(order.id, { amount: "10.00", createdAt: new Date(h.clock.ms - 30_000) });
    h.app.shopify.inject({ kind: "http", status: 503 }, 3);
    await h.deliver(h.refundDelivery(refund));
    // The worker opens the operation and makes its first read: 503.
    await h.worker.runOnce();
    const gaps: number[] = [];
    let last = h.clock.ms;
    for (let i = 0; i < 3; i++) {
      const next = (await operationFor(h.db, refundGid(refund.id))).nextDueAt!;
      if (next.getTime() > h.clock.ms) h.clock.ms = next.getTime();
      gaps.push(h.clock.ms - last);
      last = h.clock.ms;
      await h.worker.runOnce();
    }
    expect(gaps).toEqual([1000, 2000, 4000]);
    expect((await operationFor(h.db, refundGid(refund.id))).status).toBe("VERIFIED");
  });
});

describe("an answer cut short", () => {
  it("is a failed read, read again after the back-off (1 s), not taken for Shopify refusing the request (a minute)", async () => {
    h.clock.freeze();
    const order = h.shop.createOrder({ amount: "100.00", createdAt: new Date(h.clock.ms - 60_000) });
    const refund = h.shop.createRefund(order.id, { amount: "12.00", createdAt: new Date(h.clock.ms - 30_000) });
    h.app.shopify.inject({ kind: "truncated" }, 1);
    await h.deliver(h.refundDelivery(refund));
    await h.worker.runOnce();
    const op = await operationFor(h.db, refundGid(refund.id));
    expect([op.status, op.readFailures, op.nextDueAt!.getTime() - h.clock.ms]).toEqual(["PENDING", 1, 1000]);
    h.clock.ms += 1000;
    await h.worker.runOnce();
    expect((await operationFor(h.db, refundGid(refund.id))).status).toBe("VERIFIED");
  });
});

describe("webhooks hours late and out of order", () => {
  async function scenario(
    deliver: (first: Parameters<VerificationHarness["refundDelivery"]>[0], second: Parameters<VerificationHarness["refundDelivery"]>[0]) => Promise<void>,
  ) {
    const order = h.shop.createOrder({ amount: "100.00" });
    // Two seconds apart, in the past on Shopify's clock (the test's, which decides what it shows).
    const first = h.shop.createRefund(order.id, { amount: "10.00", createdAt: new Date(h.clock.ms - 4_000) });
    const second = h.shop.createRefund(order.id, { amount: "10.00", createdAt: new Date(h.clock.ms - 2_000) });
    await deliver(first, second);
    await h.settle();
    return [await operationFor(h.db, refundGid(first.id)), await operationFor(h.db, refundGid(second.id))].map((op) => `${op.status}:${op.reason}`);
  }

  it("give the same verdicts as deliveries in order: they are judged by the refunds' own times", async () => {
    const inOrder = await scenario(async (first, second) => {
      await h.deliver(h.refundDelivery(first));
      await h.deliver(h.refundDelivery(second));
    });
    const lateAndReversed = await scenario(async (first, second) => {
      await h.deliver(h.refundDelivery(second));
      await h.settle(60_000);
      h.clock.advance(3 * 3600_000);
      await h.deliver(h.refundDelivery(first));
    });
    // The second refund came two seconds after another of the same amount: it is the duplicate, however late its webhook.
    expect(inOrder).toEqual(["VERIFIED:all_conditions_hold", "CONTRADICTED:duplicate_refund_present"]);
    expect(lateAndReversed).toEqual(inOrder);
  });
});
