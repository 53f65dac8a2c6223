import type { FakeShopify } from "../fake-shopify/server";
import { newDelivery, refundWebhookBody, sendDelivery, TOPIC_PATHS } from "../fake-shopify/webhooks";

/** Refunds arriving in the simulated shop, each announced by a signed refunds/create delivery. */
export async function startDemoTraffic(options: { shopify: FakeShopify; shop: string; appUrl: string; secret: string }) {
  const shop = options.shopify.shop(options.shop);
  let sent = 0;
  async function refund(amount: string, orderAmount = "120.00") {
    const order = shop.createOrder({ amount: orderAmount });
    const created = shop.createRefund(order.id, { amount });
    const delivery = newDelivery("refunds/create", options.shop, refundWebhookBody(shop, created));
    const response = await sendDelivery(options.appUrl, TOPIC_PATHS["refunds/create"], delivery, options.secret);
    if (response.ok) sent++;
  }
  for (const amount of ["25.00", "40.50", "12.99"]) await refund(amount);
  return { describe: () => `${sent} refunds/create webhooks delivered to the app so far` };
}
