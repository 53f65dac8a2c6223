import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShopifyGateway } from "../../../app/shopify/admin/gateway.server";
import { ORDER_REFUNDS_QUERY, REFUND_READBACK_QUERY, QUERY_COSTS } from "../../../app/shopify/admin/operations";
import { databaseBuckets } from "../../../app/shopify/admin/shared-bucket.server";
import { refundGid, startVerificationHarness, type VerificationHarness } from "../../support/verification";

// A small bucket: 200 points, 400 a second. Each request reads 3 refunds (39 points).
let h: VerificationHarness;
let offlineGraphql: typeof import("../../../app/shopify/admin/offline-client.server").offlineGraphql;
beforeAll(async () => {
  h = await startVerificationHarness("bucket-shop.myshopify.com", { maximumAvailable: 200, restoreRate: 400 });
  // Imported once the app's environment is set (the Shopify client reads it when loaded).
  ({ offlineGraphql } = await import("../../../app/shopify/admin/offline-client.server"));
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
    const worker = new ShopifyGateway(offlineGraphql, undefined, undefined, databaseBuckets(h.db, 0.5));
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
    await buckets.observe(shop, 0, status(1000), 0);
    expect(await buckets.reserve(shop, 100, 0)).toEqual({ reserved: true });
    // Shopify, not yet counting a request still in flight from another process, says more is left than our count.
    await buckets.observe(shop, -40, status(960), 0);
    expect((await h.db.shopifyBucket.findUniqueOrThrow({ where: { shop } })).available).toBe(860);
    await buckets.observe(shop, 25, status(990), 0);
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
});
