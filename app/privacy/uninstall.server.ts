import type { ActionFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { logger } from "../lib/logging/logger.server";
import { stopObservingShop } from "./privacy.server";
import { interactiveGateway } from "../shopify.server";
import { installationAtShopify } from "../shops/installed.server";
import { authenticateWebhook, bodyOfHeaderShop } from "../webhooks/authenticate.server";
import { UNINSTALLED_BODY } from "../webhooks/compliance-payloads";

/**
 * app/uninstalled: the shop's sessions go and observing stops. Only for the shop its body names,
 * and only once Shopify no longer takes the app's token there: a delivery replayed (its headers
 * can say anything) cannot uninstall a shop that has the app.
 */
export async function uninstallAction({ request }: ActionFunctionArgs) {
  const webhook = await authenticateWebhook(request, "APP_UNINSTALLED");
  bodyOfHeaderShop(webhook, UNINSTALLED_BODY, (b) => b.myshopify_domain);
  const installation = await installationAtShopify(db, interactiveGateway(), webhook.shop);
  if (installation === "unknown") return new Response("Shopify did not say whether the app is installed; send it again later", { status: 503 });
  if (installation === "installed") {
    logger.warn({ shop: webhook.shop, webhookId: webhook.webhookId }, "app/uninstalled ignored: Shopify still takes the app's token for the shop");
    return new Response("ignored: the app is installed in this shop");
  }
  // Deliveries repeat and can arrive after the sessions are gone: doing it twice is harmless.
  await stopObservingShop(db, webhook.shop, new Date());
  return new Response();
}
