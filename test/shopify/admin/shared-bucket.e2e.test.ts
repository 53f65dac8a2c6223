import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShopifyGateway } from "../../../app/shopify/admin/gateway.server";
import { ORDER_REFUNDS_QUERY, REFUND_READBACK_QUERY, QUERY_COSTS } from "../../../app/shopify/admin/documents";
import { databaseBuckets } from "../../../app/shopify/admin/shared-bucket.server";
import { config, reloadConfig } from "../../../app/lib/config/env.server";
import { refundGid, startVerificationHarness, type VerificationHarness } from "../../support/verification";
import { waitFor } from "../../support/wait";

// A small bucket: 200 points, 400 a second. Each request reads 3 refunds (39 points).
let h: VerificationHarness;
let offlineGraphql: typeof import("../../../app/shopify.server").offlineGraphql;
beforeAll(async () => {
  h = await startVerificationHarness("bucket-shop.myshopify.com", { maximumAvailable: 200, restoreRate: 400 });
  // Imported once the app's environment is set (the Shopify client reads it when loaded).
  ({ offlineGraphql } = await import("../../../app/shopify.server"));
});
afterAll(async () => h.close());

const COST = 3 * QUERY_COSTS.refundReadbackPerRefund;

/** What a second without requests leaves, as a step rather than a wait: Shopify's bucket full, and the shared count (which would have refilled too) starting over. */
async function quietSecond() {
  h.app.shopify.api(h.domain).fillBucket();
  await h.db.shopifyBucket.deleteMany({ where: { shop: h.domain } });
}

/** Two processes' gateways, each sending 8 requests at once. */
async function twoProcesses(make: () => ShopifyGateway) {
  const order = h.shop.createOrder({ amount: "90.00" });
  const ids = [1, 2, 3].map(() => refundGid(h.shop.createRefund(order.id, { amount: "1.00" }).id));
  const before = { ...h.app.shopify.api(h.domain).stats };
  const gateways = [make(), make()];
  // Each learns the bucket first, as a worker's first request does.
  for (const gateway of gateways) await gateway.request(h.domain, REFUND_READBACK_QUERY, { ids }, COST, { waitThrottled: true });
  const answers = await Promise.all(
    gateways.flatMap((gateway) => Array.from({ length: 8 }, () => gateway.request(h.domain, REFUND_READBACK_QUERY, { ids }, COST))),
  );
  const stats = h.app.shopify.api(h.domain).stats;
  return { answered: answers.filter((a) => a.ok).length, intoEmptyBucket: stats.throttled - before.throttled };
}

describe("one shop's Shopify bucket, spent by several processes", () => {
  it("with each process's own view, they send requests into a bucket the other emptied", async () => {
    const { intoEmptyBucket } = await twoProcesses(() => new ShopifyGateway(offlineGraphql));
    expect(intoEmptyBucket).toBeGreaterThan(0);
  });

  it("through the shared row, none reaches Shopify with the bucket empty, and every request is answered", async () => {
    await quietSecond();
    const { answered, intoEmptyBucket } = await twoProcesses(() => new ShopifyGateway(offlineGraphql, undefined, undefined, databaseBuckets(h.db)));
    expect(intoEmptyBucket).toBe(0);
    expect(answered).toBe(16);
  });

  it("background work leaves a share of the bucket to a person's request", async () => {
    await quietSecond();
    const order = h.shop.createOrder({ amount: "90.00" });
    const ids = [refundGid(h.shop.createRefund(order.id, { amount: "1.00" }).id)];
    const worker = new ShopifyGateway(offlineGraphql, undefined, undefined, databaseBuckets(h.db, { keepForPeople: 0.5 }));
    await worker.request(h.domain, REFUND_READBACK_QUERY, { ids }, 13);
    // The worker may take the bucket down to half of it (100 points), no further: a 150-point request waits.
    const row = await h.db.shopifyBucket.findUniqueOrThrow({ where: { shop: h.domain } });
    await h.db.shopifyBucket.update({ where: { shop: h.domain }, data: { available: 120, atMs: Date.now(), restoreRate: 0.001 } });
    const waited = await worker.request(h.domain, REFUND_READBACK_QUERY, { ids }, 150);
    expect(waited).toMatchObject({ ok: false, kind: "deferred", code: "BUCKET_EMPTY" });
    const person = new ShopifyGateway(offlineGraphql, undefined, undefined, databaseBuckets(h.db));
    expect((await person.request(h.domain, REFUND_READBACK_QUERY, { ids }, 13)).ok).toBe(true);
    await h.db.shopifyBucket.update({ where: { shop: h.domain }, data: { restoreRate: row.restoreRate } });
  });

  it("an answer that cost more than was reserved takes the rest from the shared count; one that cost less gives back the difference", async () => {
    const buckets = databaseBuckets(h.db);
    const shop = "costly-shop.myshopify.com";
    const status = (currentlyAvailable: number) => ({ throttleStatus: { maximumAvailable: 1000, currentlyAvailable, restoreRate: 0.001 } });
    await buckets.answered(shop, { reserved: 0, unused: 0, cost: status(1000) }, 0);
    expect(await buckets.reserve(shop, 100, 0)).toEqual({ reserved: true });
    // Shopify, not yet counting a request still in flight from another process, says more is left than our count.
    await buckets.answered(shop, { reserved: 100, unused: -40, cost: status(960) }, 0);
    expect((await h.db.shopifyBucket.findUniqueOrThrow({ where: { shop } })).available).toBe(860);
    await buckets.answered(shop, { reserved: 0, unused: 25, cost: status(990) }, 0);
    expect((await h.db.shopifyBucket.findUniqueOrThrow({ where: { shop } })).available).toBe(885);
  });

  it("a list read whole costs Shopify no more than it asked for: the shared count is not charged the larger actual cost", async () => {
    await quietSecond();
    const order = h.shop.createOrder({ amount: "900.00" });
    for (let i = 0; i < 70; i++) h.shop.createRefund(order.id, { amount: "1.00" });
    const gateway = new ShopifyGateway(offlineGraphql, undefined, undefined, databaseBuckets(h.db));
    const answer = await gateway.request(h.domain, ORDER_REFUNDS_QUERY, { id: `gid://shopify/Order/${order.id}` }, QUERY_COSTS.orderRefunds);
    if (!answer.ok) throw new Error(answer.message);
    // 70 refunds returned cost far more than the one element `refunds` without `first` is priced at; Shopify kept the requested cost.
    expect(answer.cost!.actualQueryCost).toBeGreaterThan(answer.cost!.requestedQueryCost! * 5);
    const row = await h.db.shopifyBucket.findUniqueOrThrow({ where: { shop: h.domain } });
    // The shared count stays with what Shopify says is left (a few points of refill apart), not hundreds below it.
    expect(row.available).toBeGreaterThan(answer.cost!.throttleStatus!.currentlyAvailable - 10);
  });

  describe("a request still on its way to Shopify", () => {
    // One virtual clock for Shopify's bucket and both gateways: a wait moves it, so "a second
    // later" is a second on any machine.
    let nowMs = 0;
    /** A process's gateway on the virtual clock; `onWait` hears each wait for the bucket. */
    const onVirtualTime = (onWait = () => {}) =>
      new ShopifyGateway(
        offlineGraphql,
        () => nowMs,
        async (ms) => {
          onWait();
          nowMs += ms;
        },
        databaseBuckets(h.db),
      );
    beforeAll(() => {
      nowMs = Date.now();
      h.app.shopify.bucketNowMs = () => nowMs;
    });
    afterAll(() => {
      h.app.shopify.bucketNowMs = () => Date.now();
    });

    it("is counted until Shopify answers it: with Shopify's bucket full, the others do not spend its points again", async () => {
      await quietSecond();
      const order = h.shop.createOrder({ amount: "90.00" });
      const ids = [1, 2, 3].map(() => refundGid(h.shop.createRefund(order.id, { amount: "1.00" }).id));
      const slow = onVirtualTime();
      await slow.request(h.domain, REFUND_READBACK_QUERY, { ids }, COST);
      nowMs += 1_000; // Shopify's bucket and the shared count are full again.
      const throttledBefore = h.app.shopify.api(h.domain).stats.throttled;

      // The slow process takes its points; its request stalls on the way (a paused process, a slow network).
      h.app.shopify.inject({ kind: "on_the_way" });
      const stalled = slow.request(h.domain, REFUND_READBACK_QUERY, { ids }, COST);
      await waitFor("the request to be on its way", () => h.app.shopify.requestsOnTheWay.held === 1);
      // A second later Shopify's bucket is still at its maximum: it cannot gain the points it has not yet charged.
      nowMs += 1_000;
      // The other process spends all the shared count lets it, until it has to wait once.
      let waited = false;
      const other = onVirtualTime(() => (waited = true));
      for (let sent = 0; !waited && sent < 20; sent++) expect((await other.request(h.domain, REFUND_READBACK_QUERY, { ids }, COST)).ok).toBe(true);
      expect(waited).toBe(true);

      h.app.shopify.requestsOnTheWay.open();
      expect((await stalled).ok).toBe(true);
      expect(h.app.shopify.api(h.domain).stats.throttled - throttledBefore).toBe(0);
      // Every answer came back: nothing is counted in flight any more.
      expect((await h.db.shopifyBucket.findUniqueOrThrow({ where: { shop: h.domain } })).pending).toBe(0);
    });

    it("that our own timeout gave up on is still counted in flight: arriving late, it finds its points unspent", async () => {
      await quietSecond();
      const order = h.shop.createOrder({ amount: "90.00" });
      const ids = [1, 2, 3].map(() => refundGid(h.shop.createRefund(order.id, { amount: "1.00" }).id));
      const slow = onVirtualTime();
      let waited = false;
      const other = onVirtualTime(() => (waited = true));
      await slow.request(h.domain, REFUND_READBACK_QUERY, { ids }, COST);
      nowMs += 1_000; // Shopify's bucket and the shared count are full again.
      const stats = h.app.shopify.api(h.domain).stats;
      const throttledBefore = stats.throttled;

      // The slow process gives up after 300 ms; its request is still queued at Shopify's door.
      const timeout = process.env.VERIFIER_REQUEST_TIMEOUT_MS;
      process.env.VERIFIER_REQUEST_TIMEOUT_MS = "300";
      reloadConfig();
      try {
        h.app.shopify.inject({ kind: "on_the_way" });
        expect(await slow.request(h.domain, REFUND_READBACK_QUERY, { ids }, COST)).toMatchObject({ ok: false, kind: "unavailable", code: "TIMEOUT" });
      } finally {
        if (timeout === undefined) delete process.env.VERIFIER_REQUEST_TIMEOUT_MS;
        else process.env.VERIFIER_REQUEST_TIMEOUT_MS = timeout;
        reloadConfig();
      }
      expect(h.app.shopify.requestsOnTheWay.held).toBe(1);

      // A second later (within the in-flight window) the other process spends all the shared count lets it.
      nowMs += 1_000;
      for (let sent = 0; !waited && sent < 20; sent++) expect((await other.request(h.domain, REFUND_READBACK_QUERY, { ids }, COST)).ok).toBe(true);
      expect(waited).toBe(true);

      const arrived = stats.graphqlRequests;
      h.app.shopify.requestsOnTheWay.open();
      await waitFor("the given-up request to reach Shopify", () => stats.graphqlRequests > arrived);
      expect(stats.throttled - throttledBefore).toBe(0);
    });

    it("whose connection Shopify dropped without an answer is no longer counted in flight (it arrived)", async () => {
      await quietSecond();
      const order = h.shop.createOrder({ amount: "90.00" });
      const ids = [refundGid(h.shop.createRefund(order.id, { amount: "1.00" }).id)];
      const gateway = onVirtualTime();
      await gateway.request(h.domain, REFUND_READBACK_QUERY, { ids }, 13);
      h.app.shopify.inject({ kind: "lost_answer" });
      expect(await gateway.request(h.domain, REFUND_READBACK_QUERY, { ids }, 13)).toMatchObject({ ok: false, kind: "unavailable" });
      expect((await h.db.shopifyBucket.findUniqueOrThrow({ where: { shop: h.domain } })).pending).toBe(0);
    });
  });

  /** A shop whose row says 1,000 of 1,000 points at 0 ms, refilling 100 a second; a request is in flight for 10 s at most. */
  async function fullBucketAtZero(shop: string) {
    const buckets = databaseBuckets(h.db, { inFlightForMs: 10_000 });
    await buckets.answered(
      shop,
      { reserved: 0, unused: 0, cost: { throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 1000, restoreRate: 100 } } },
      0,
    );
    return { buckets, shop };
  }

  it("a reservation whose statement reached the row late does not end the in-flight window of one made after it", async () => {
    const { buckets, shop } = await fullBucketAtZero("late-statement-shop.myshopify.com");
    expect(await buckets.reserve(shop, 300, 5_000)).toEqual({ reserved: true });
    // Another process read its clock at 0, then waited for the row (a lock, a slow pool) and got it after.
    expect(await buckets.reserve(shop, 100, 0)).toEqual({ reserved: true });
    // 7 s after the 300 were reserved they may still be on their way: the refill stops at the maximum less them.
    expect(await buckets.reserve(shop, 700, 12_000)).toMatchObject({ reserved: false });
  });

  it("a request is counted in flight past its own timeout: its timer starts only once its points are reserved", async () => {
    const timeoutMs = config().VERIFIER_REQUEST_TIMEOUT_MS;
    const buckets = databaseBuckets(h.db);
    const shop = "whole-request-shop.myshopify.com";
    const status = { throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 1000, restoreRate: 100 } };
    await buckets.answered(shop, { reserved: 0, unused: 0, cost: status }, 0);
    expect(await buckets.reserve(shop, 963, 0)).toEqual({ reserved: true });
    // The reservation's statement and the session's read took a moment: its request was sent at 50 ms,
    // and is given up on only at the timeout after that. Until then it can still be charged.
    expect(await buckets.reserve(shop, 500, timeoutMs + 10)).toMatchObject({ reserved: false });
  });

  it("points reserved by a process that died before the answer are taken for lost once a request could no longer be running", async () => {
    const { buckets, shop } = await fullBucketAtZero("dead-process-shop.myshopify.com");
    expect(await buckets.reserve(shop, 300, 0)).toEqual({ reserved: true });
    // Its answer never comes. 5 s on, the refill has stopped at the maximum less the 300 in flight.
    expect(await buckets.reserve(shop, 800, 5_000)).toMatchObject({ reserved: false });
    expect(await buckets.reserve(shop, 700, 5_000)).toEqual({ reserved: true });
    // 10 s after the last reservation nothing can still be on its way: the whole bucket is there again.
    expect(await buckets.reserve(shop, 1000, 15_000)).toEqual({ reserved: true });
  });
});
