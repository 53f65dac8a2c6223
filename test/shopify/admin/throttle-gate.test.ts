import { describe, expect, it } from "vitest";
import { ShopifyGateway } from "../../../app/shopify/admin/gateway.server";
import { REFUND_READBACK_QUERY } from "../../../app/shopify/admin/documents";
import { ThrottleGate } from "../../../app/shopify/admin/throttle";
import type { AdminResponse, QueryCost } from "../../../app/shopify/admin/transport";

/** `extensions.cost` as Shopify sends it with an answer. */
const costOf = (currentlyAvailable: number, maximumAvailable = 1000, restoreRate = 50, requestedQueryCost = 10): QueryCost => ({
  requestedQueryCost,
  actualQueryCost: requestedQueryCost,
  throttleStatus: { maximumAvailable, currentlyAvailable, restoreRate },
});

const T = 1_000_000; // any instant: the gate only counts from the last answer

/** A gate that has heard one answer at T. */
function gateAfter(cost: QueryCost): ThrottleGate {
  const gate = new ThrottleGate();
  gate.observe(cost, T);
  return gate;
}

describe("a shop's bucket before Shopify has answered", () => {
  it("is unknown, and never holds a request back however large", () => {
    const gate = new ThrottleGate();
    expect(gate.unknown).toBe(true);
    expect(gate.waitMs(1, 0)).toBe(0);
    expect(gate.waitMs(1000, T)).toBe(0);
    expect(gate.waitMs(1_000_000, T)).toBe(0);
  });

  it("stays unknown after reservations: there is nothing to count them against", () => {
    const gate = new ThrottleGate();
    gate.reserve(1000, T);
    gate.reserve(1000, T);
    expect(gate.unknown).toBe(true);
    expect(gate.waitMs(1000, T)).toBe(0);
  });

  it("stays unknown after an answer without a throttleStatus", () => {
    const gate = new ThrottleGate();
    gate.observe(undefined, T);
    gate.observe({ requestedQueryCost: 10, actualQueryCost: 10 }, T);
    expect(gate.unknown).toBe(true);
    expect(gate.waitMs(5000, T)).toBe(0);
  });
});

describe("a bucket learned from an answer", () => {
  it("is known, and lets through what it holds without waiting", () => {
    const gate = gateAfter(costOf(1000));
    expect(gate.unknown).toBe(false);
    expect(gate.waitMs(1000, T)).toBe(0);
    expect(gate.waitMs(1, T)).toBe(0);
  });

  it("after a reservation, waits for the points missing at the restore rate (50 a second: 20 ms a point)", () => {
    const gate = gateAfter(costOf(1000));
    gate.reserve(400, T); // 600 left
    expect(gate.waitMs(600, T)).toBe(0);
    expect(gate.waitMs(601, T)).toBe(20);
    expect(gate.waitMs(700, T)).toBe(2000);
    expect(gate.waitMs(1000, T)).toBe(8000);
  });

  it("counts every reservation until an answer resyncs it", () => {
    const gate = gateAfter(costOf(1000));
    gate.reserve(300, T);
    gate.reserve(300, T); // 400 left
    expect(gate.waitMs(500, T)).toBe(2000);
    gate.observe(costOf(900), T); // Shopify's figure replaces ours
    expect(gate.waitMs(500, T)).toBe(0);
    expect(gate.waitMs(1000, T)).toBe(2000);
  });

  it("goes into debt when more is reserved than it holds, and the debt is waited out too", () => {
    const gate = gateAfter(costOf(100));
    gate.reserve(300, T); // -200
    expect(gate.waitMs(100, T)).toBe(6000);
    expect(gate.waitMs(100, T + 6000)).toBe(0);
  });

  it("refills over time at the restore rate", () => {
    const gate = gateAfter(costOf(600));
    expect(gate.waitMs(700, T)).toBe(2000);
    expect(gate.waitMs(700, T + 1000)).toBe(1000);
    expect(gate.waitMs(700, T + 1999)).toBe(1);
    expect(gate.waitMs(700, T + 2000)).toBe(0);
    // A reservation made later counts from what had refilled by then.
    gate.reserve(700, T + 2000); // 0 left
    expect(gate.waitMs(50, T + 2000)).toBe(1000);
  });

  it("rounds a fractional wait up to the next millisecond, and that wait is enough", () => {
    const gate = gateAfter(costOf(0, 1000, 3)); // 3 points a second: 333.33 ms a point
    expect(gate.waitMs(1, T)).toBe(334);
    expect(gate.waitMs(1, T + 333)).toBe(1);
    expect(gate.waitMs(1, T + 334)).toBe(0);
  });

  it("never refills beyond its maximum", () => {
    const gate = gateAfter(costOf(600));
    // A minute later, 600 + 60 s × 50 would be 3600 points; the bucket holds 1000.
    gate.reserve(1000, T + 60_000);
    expect(gate.waitMs(1000, T + 60_000)).toBe(20_000);
    expect(gate.waitMs(1, T + 60_000)).toBe(20);
  });
});

describe("what a request is asked to wait", () => {
  it("is at most the time to fill the bucket, even for a request costing more than it holds", () => {
    const gate = gateAfter(costOf(0)); // 1000 points at 50 a second: 20 s to fill
    expect(gate.waitMs(1000, T)).toBe(20_000);
    expect(gate.waitMs(5000, T)).toBe(20_000);
    expect(gate.waitMs(Number.MAX_SAFE_INTEGER, T)).toBe(20_000);
    // Once the bucket is full, the oversized request goes (Shopify decides on it, not us).
    expect(gate.waitMs(5000, T + 20_000)).toBe(0);
  });

  it("is the time until the request fits: waiting it out leaves nothing to wait", () => {
    const gate = gateAfter(costOf(120, 1000, 50));
    const wait = gate.waitMs(450, T);
    expect(wait).toBe(6600);
    expect(gate.waitMs(450, T + 2000)).toBe(4600);
    expect(gate.waitMs(450, T + wait)).toBe(0);
  });
});

describe("learning the bucket from each answer", () => {
  it("learns a smaller bucket and a slower restore rate (a store that left Shopify Plus)", () => {
    const gate = gateAfter(costOf(2000, 2000, 100));
    expect(gate.waitMs(1500, T)).toBe(0);
    gate.observe(costOf(200, 1000, 50), T + 10);
    // 1500 can never fit in a 1000-point bucket: it waits for a full one, at 50 a second.
    expect(gate.waitMs(1500, T + 10)).toBe(16_000);
    expect(gate.waitMs(300, T + 10)).toBe(2000);
    // And refill stops at the new maximum.
    gate.reserve(1000, T + 100_000);
    expect(gate.waitMs(1000, T + 100_000)).toBe(20_000);
  });

  it("learns a larger bucket too", () => {
    const gate = gateAfter(costOf(50, 100, 5));
    expect(gate.waitMs(150, T)).toBe(10_000); // capped at the 100-point bucket
    gate.observe(costOf(50, 2000, 100), T);
    expect(gate.waitMs(150, T)).toBe(1000);
  });

  it("takes the figures of a THROTTLED answer: the request waits until its cost has refilled", () => {
    // Shopify's THROTTLED answer still carries extensions.cost, with less available than requested.
    const throttled = { requestedQueryCost: 101, actualQueryCost: null, throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 42, restoreRate: 50 } };
    const gate = gateAfter(costOf(1000));
    gate.observe(throttled, T + 500);
    expect(gate.waitMs(101, T + 500)).toBe(1180);
    expect(gate.waitMs(101, T + 1680)).toBe(0);
  });
});

describe("the gateway paces requests by the gate", () => {
  const throttledAnswer = (currentlyAvailable: number): AdminResponse => ({
    errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
    extensions: { cost: { requestedQueryCost: 101, actualQueryCost: null, throttleStatus: { maximumAvailable: 1000, currentlyAvailable, restoreRate: 50 } } },
    apiVersion: "2026-10",
  });

  it("a THROTTLED answer is retried after the bucket refills for the request's cost", async () => {
    const gateway = new ShopifyGateway(
      async () => async () => throttledAnswer(42),
      () => T,
      async () => undefined,
    );
    const answer = await gateway.request("s", REFUND_READBACK_QUERY, { ids: [] }, 101);
    expect(answer).toMatchObject({ ok: false, kind: "throttled", code: "THROTTLED", retryAfterMs: 1180 });
    expect(gateway.waitMs("s", 101)).toBe(1180);
    expect(gateway.stats.throttled).toBe(1);
  });

  it("a THROTTLED answer is never retried sooner than a second", async () => {
    const gateway = new ShopifyGateway(
      async () => async () => throttledAnswer(95),
      () => T,
      async () => undefined,
    );
    const answer = await gateway.request("s", REFUND_READBACK_QUERY, { ids: [] }, 101);
    expect(answer).toMatchObject({ ok: false, kind: "throttled", retryAfterMs: 1000 });
  });

  it("sleeps a short wait, then sends", async () => {
    let now = T;
    const slept: number[] = [];
    let sent = 0;
    const gateway = new ShopifyGateway(
      async () => async () => (sent++, { data: { nodes: [] }, extensions: { cost: costOf(1000 - 150) }, apiVersion: "2026-10" }),
      () => now,
      async (ms) => {
        slept.push(ms);
        now += ms;
      },
    );
    gateway.gate("s").observe(costOf(100), T);
    const answer = await gateway.request("s", REFUND_READBACK_QUERY, { ids: [] }, 150);
    expect(answer.ok).toBe(true);
    expect(slept).toEqual([1000]);
    expect(sent).toBe(1);
  });

  it("hands a wait over 5 s back as deferred, without sending anything", async () => {
    let sent = 0;
    const gateway = new ShopifyGateway(
      async () => async () => (sent++, { data: { nodes: [] }, apiVersion: "2026-10" }),
      () => T,
      async () => undefined,
    );
    gateway.gate("s").observe(costOf(0), T);
    const answer = await gateway.request("s", REFUND_READBACK_QUERY, { ids: [] }, 500);
    expect(answer).toMatchObject({ ok: false, kind: "deferred", code: "BUCKET_EMPTY", retryAfterMs: 10_000 });
    expect(sent).toBe(0);
    expect(gateway.stats.requests).toBe(0);
  });
});
