import type { ActionFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { recordCustomerDataRequest, redactCustomerOrders, redactShop } from "../privacy/privacy.server";
import { authenticateWebhook } from "./authenticate.server";
import { parseJsonKeepingLongIntegers } from "./lossless-json";
export { postOnly as complianceLoader } from "./authenticate.server";

/** The mandatory compliance topics: authenticated (401 on a bad HMAC, as App Store review requires), then carried out. */
export async function complianceAction({ request }: ActionFunctionArgs) {
  // /webhooks/customers/data_request takes CUSTOMERS_DATA_REQUEST, and so on.
  const expected = new URL(request.url).pathname
    .replace(/^\/webhooks\//, "")
    .replace(/\//g, "_")
    .toUpperCase();
  const { shop, topic, rawBody } = await authenticateWebhook(request, expected);
  // Order ids are JSON numbers above 2^53: read them from the raw body's digits.
  const body = (parseJsonKeepingLongIntegers(rawBody) ?? {}) as Record<string, never>;
  if (topic === "SHOP_REDACT") await redactShop(db, shop);
  else if (topic === "CUSTOMERS_REDACT") await redactCustomerOrders(db, shop, body);
  else if (topic === "CUSTOMERS_DATA_REQUEST") await recordCustomerDataRequest(db, shop, body);
  else return new Response(`unexpected topic ${topic}`, { status: 400 });
  return new Response();
}
