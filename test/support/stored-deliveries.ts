import type { FakeShopify } from "../../fake-shopify/server";
import { refundWebhookBody } from "../../fake-shopify/webhooks";
import { openDeliveryStore } from "../../app/webhooks/delivery-store.server";
import { parseRefundWebhook } from "../../app/webhooks/refund-payload";

/**
 * `perShop` orders in each shop with `refundsPerOrder` refunds of one amount each (more than one:
 * an order refunded twice, a duplicate), made at `createdAt`, their refunds/create deliveries stored
 * as the intake stores them (in batches of 500, without 10,000 HTTP requests): what a backlog left by
 * an outage looks like to the workers. The shops must be installed already. Returns the refunds' gids.
 */
export async function storeRefundDeliveries(
  shopify: FakeShopify,
  databaseUrl: string,
  domains: string[],
  perShop: number,
  createdAt: Date,
  refundsPerOrder = 1,
): Promise<string[]> {
  const store = openDeliveryStore(databaseUrl);
  const gids: string[] = [];
  try {
    // Shop after shop, refund after refund: as a backlog of several shops arrives, interleaved.
    const batch = [];
    for (let i = 0; i < perShop; i++) {
      for (const [s, domain] of domains.entries()) {
        const shop = shopify.shop(domain);
        const order = shop.createOrder({ amount: "80.00" });
        for (let r = 0; r < refundsPerOrder; r++) {
          const refund = shop.createRefund(order.id, { amount: `${1 + (i % 60)}.00`, createdAt });
          const claim = parseRefundWebhook(refundWebhookBody(shop, refund));
          gids.push(claim.refundGid);
          batch.push({
            shop: domain,
            webhookId: `w-${s}-${i}-${claim.refundGid}`,
            eventId: null,
            topic: "REFUNDS_CREATE",
            triggeredAt: createdAt,
            apiVersion: "2026-10",
            refundGid: claim.refundGid,
            orderGid: claim.orderGid,
            refundCreatedAt: new Date(claim.createdAt),
            amount: claim.amount,
            currency: claim.currency,
            receivedAt: createdAt,
          });
        }
      }
    }
    for (let i = 0; i < batch.length; i += 500) await store.store(batch.slice(i, i + 500));
  } finally {
    await store.close();
  }
  return gids;
}
