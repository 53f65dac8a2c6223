import type { ActionFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { createOnce } from "../lib/db/create-once";
import { logger } from "../lib/logging/logger.server";
import { recordCustomerDataRequest, redactCustomerOrders, redactShop } from "./privacy.server";
import { interactiveGateway } from "../shopify.server";
import { installationAtShopify } from "../shops/installed.server";
import { authenticateWebhook, bodyOfHeaderShop } from "../webhooks/authenticate.server";
import { COMPLIANCE_BODIES, type ComplianceTopic } from "../webhooks/compliance-payloads";
export { postOnly as complianceLoader } from "../webhooks/authenticate.server";

const log = logger.child({ module: "compliance" });

type Outcome = { done: true; words: string } | { done: false; status: number; words: string };

/** shop/redact follows an uninstall by 48 hours: for a shop Shopify says has the app, it erases nothing. */
async function redactUninstalledShop(shop: string): Promise<Outcome> {
  const installation = await installationAtShopify(db, interactiveGateway(), shop);
  if (installation === "unknown") return { done: false, status: 503, words: "Shopify did not say whether the app is installed; send it again later" };
  if (installation === "installed") {
    log.warn({ shop }, "shop/redact refused: Shopify says the app is installed in the shop");
    return { done: true, words: "refused: the app is installed in this shop, so nothing was erased" };
  }
  await redactShop(db, shop);
  return { done: true, words: "carried out" };
}

/**
 * The mandatory compliance topics: authenticated (401 on a bad HMAC, as App Store review
 * requires), about the shop the body names (decision 017), carried out once per webhook id.
 */
export async function complianceAction({ request }: ActionFunctionArgs) {
  // /webhooks/customers/data_request takes CUSTOMERS_DATA_REQUEST, and so on.
  const expected = new URL(request.url).pathname
    .replace(/^\/webhooks\//, "")
    .replace(/\//g, "_")
    .toUpperCase();
  const webhook = await authenticateWebhook(request, expected);
  const topic = webhook.topic as ComplianceTopic;
  if (!(topic in COMPLIANCE_BODIES)) return new Response(`unexpected topic ${topic}`, { status: 400 });
  const { shop, webhookId } = webhook;
  if (await db.complianceDelivery.findUnique({ where: { webhookId } })) return new Response("already handled");
  let outcome: Outcome;
  if (topic === "SHOP_REDACT") {
    bodyOfHeaderShop(webhook, COMPLIANCE_BODIES.SHOP_REDACT, (b) => b.shop_domain);
    outcome = await redactUninstalledShop(shop);
  } else if (topic === "CUSTOMERS_REDACT") {
    await redactCustomerOrders(
      db,
      shop,
      bodyOfHeaderShop(webhook, COMPLIANCE_BODIES.CUSTOMERS_REDACT, (b) => b.shop_domain),
    );
    outcome = { done: true, words: "carried out" };
  } else {
    await recordCustomerDataRequest(
      db,
      shop,
      bodyOfHeaderShop(webhook, COMPLIANCE_BODIES.CUSTOMERS_DATA_REQUEST, (b) => b.shop_domain),
    );
    outcome = { done: true, words: "carried out" };
  }
  if (!outcome.done) return new Response(outcome.words, { status: outcome.status });
  await createOnce(() => db.complianceDelivery.create({ data: { webhookId, topic: webhook.topic, receivedAt: new Date(), outcome: outcome.words } }));
  return new Response(outcome.words);
}
