import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../app/lib/db/client";
import { FakeShopify } from "../fake-shopify/server";
import { refundWebhookBody } from "../fake-shopify/webhooks";
import { TEST_APP } from "../test/support/credentials";
import { installShop } from "../test/support/sessions";
import { QUERY_COSTS } from "../app/shopify/admin/documents";
import { fakeShopifyAppEnv, migrate, row, scratchSqlite, type BenchRow } from "./support";
import { reloadConfig } from "../app/lib/config/env.server";
import pino from "pino";

const quiet = pino({ enabled: false });

const SHOP = "bench-readback.myshopify.com";
/** The same selection as the app's read-back, one refund per request. */
const NAIVE_QUERY = `query($id: ID!) { refund(id: $id) { id createdAt order { id name } totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } } transactions(first: 5) { nodes { id kind status gateway errorCode processedAt } pageInfo { hasNextPage endCursor } } } }`;

/**
 * 2. A burst of refunds from one shop under Shopify's Standard rate limit (1,000-point bucket,
 * 100 points/s). Time is virtual: the fake's bucket and the worker share one clock, which moves
 * when the worker waits, so the figure is what the rate limit allows, not what this machine does.
 */
export async function benchReadback(count: number): Promise<BenchRow[]> {
  const databaseUrl = scratchSqlite("readback");
  migrate(databaseUrl);
  let virtualMs = Date.parse("2026-11-30T12:00:00Z");
  const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 1000, restoreRate: 100 });
  shopify.now = () => new Date(virtualMs);
  shopify.bucketNowMs = () => virtualMs;
  const shop = shopify.addShop(SHOP);
  const origin = await shopify.listen();
  Object.assign(process.env, fakeShopifyAppEnv(databaseUrl, origin));
  reloadConfig();
  const db: PrismaClient = createPrismaClient(databaseUrl);
  try {
    await installShop(db, shopify, SHOP);
    const { offlineGraphql } = await import("../app/shopify.server");
    const { ShopifyGateway } = await import("../app/shopify/admin/gateway.server");
    const { processDue, nextDueTime } = await import("../app/verification/runtime.server");
    const { openDeliveredRefunds } = await import("../app/verification/intake.server");
    const { openDeliveryStore } = await import("../app/webhooks/delivery-store.server");
    const deliveries = openDeliveryStore(databaseUrl);
    const { REFUND_CREATED } = await import("../app/contracts/registry.server");
    const { parseRefundWebhook } = await import("../app/webhooks/refund-payload");
    const { ThrottleGate } = await import("../app/shopify/admin/throttle");
    const { ADMIN_API_VERSION } = await import("../app/shopify/api-version");

    const gids: string[] = [];
    for (let i = 0; i < count; i++) {
      const order = shop.createOrder({ amount: "80.00" });
      const refund = shop.createRefund(order.id, { amount: "25.00" });
      const claim = parseRefundWebhook(refundWebhookBody(shop, refund));
      await deliveries.store([
        {
          shop: SHOP,
          webhookId: `w${i}`,
          eventId: `e${i}`,
          topic: "REFUNDS_CREATE",
          triggeredAt: new Date(virtualMs),
          apiVersion: ADMIN_API_VERSION,
          refundGid: claim.refundGid,
          orderGid: claim.orderGid,
          refundCreatedAt: new Date(claim.createdAt),
          amount: claim.amount,
          currency: claim.currency,
          receivedAt: new Date(virtualMs),
        },
      ]);
      gids.push(claim.refundGid);
    }
    await deliveries.close();
    while (await openDeliveredRefunds({ db, now: () => new Date(virtualMs), workerId: "bench", logger: quiet }, REFUND_CREATED));

    const gateway = new ShopifyGateway(
      offlineGraphql,
      () => virtualMs,
      async (ms: number) => void (virtualMs += ms),
    );
    const deps = { db, contract: REFUND_CREATED, gateway, now: () => new Date(virtualMs), workerId: "bench", logger: quiet };
    const start = virtualMs;
    for (let pass = 0; pass < 10_000; pass++) {
      await processDue(deps);
      const next = await nextDueTime(db);
      if (!next) break;
      if (next.getTime() > virtualMs) virtualMs = next.getTime();
    }
    const verified = await db.operation.count({ where: { status: "VERIFIED" } });
    if (verified !== count) throw new Error(`readback bench: ${verified} of ${count} verified`);
    const lastVerdict = (await db.operation.findFirstOrThrow({ orderBy: { decidedAt: "desc" } })).decidedAt!.getTime();
    const batched = {
      requests: gateway.stats.requests,
      cost: gateway.stats.requestedCost,
      seconds: (lastVerdict - start) / 1000,
      throttled: shopify.api(SHOP).stats.throttled,
    };

    // The naive way, on a full bucket: one refund(id:) request per refund (one attempt each, as all verify at once), waiting on the bucket the same way.
    const api = shopify.api(SHOP);
    api.bucket.currentlyAvailable = api.bucket.maximumAvailable;
    api.bucket.updatedAtMs = virtualMs;
    const gate = new ThrottleGate();
    const graphql = await offlineGraphql(SHOP);
    const naiveStart = virtualMs;
    let naiveCost = 0;
    let naiveThrottled = 0;
    for (const id of gids) {
      for (;;) {
        virtualMs += gate.waitMs(QUERY_COSTS.refundReadbackPerRefund, virtualMs);
        const body = await graphql(NAIVE_QUERY, { id });
        gate.observe(body.extensions?.cost, virtualMs);
        if (!body.errors?.length) {
          naiveCost += body.extensions?.cost?.requestedQueryCost ?? 0;
          break;
        }
        naiveThrottled++;
        virtualMs += 1000;
      }
    }
    const naive = { requests: count, cost: naiveCost, seconds: (virtualMs - naiveStart) / 1000, throttled: naiveThrottled };
    const note = `${count} refunds, one shop, Standard plan bucket (1,000 points, 100/s); virtual clock; THROTTLED answers: batched ${batched.throttled}, naive ${naive.throttled}`;
    return [
      row(
        "2. readback",
        "GraphQL requests per verified refund",
        batched.requests / count,
        naive.requests / count,
        "req",
        "one refund(id:) request per refund per attempt",
        note,
      ),
      row(
        "2. readback",
        "requested query cost per verified refund",
        batched.cost / count,
        naive.cost / count,
        "points",
        "one refund(id:) request per refund per attempt",
      ),
      row("2. readback", "time to the last verdict at 100 points/s", batched.seconds, naive.seconds, "s", "one refund(id:) request per refund per attempt"),
    ];
  } finally {
    await db.$disconnect();
    await shopify.close();
  }
}
