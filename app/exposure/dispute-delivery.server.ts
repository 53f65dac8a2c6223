import { z } from "zod";
import db from "../db.server";
import { shopifyGid, shopifyNumberSchema } from "../shopify/ids";
import { authenticateWebhook, badPayload } from "../webhooks/authenticate.server";
import { parseBody } from "../webhooks/compliance-payloads";
import { parseJsonKeepingLongIntegers } from "../webhooks/lossless-json";
import { readOrderAgain } from "./follow-up.server";

/** What the app takes from a disputes/* body (Shopify's Dispute resource): the order it is on. Nothing else is trusted. */
const disputeBody = z.object({ id: shopifyNumberSchema, order_id: shopifyNumberSchema.nullable() });

/**
 * disputes/create and disputes/update: a hint, never a record (decision 017). The body names no
 * shop and Shopify signs the body only, so the delivery makes the header shop's refunds of that
 * order be read again through its own token, and changes nothing else: a forged or replayed one,
 * or one naming another shop's order, costs a read that finds what Shopify shows.
 */
export async function receiveDisputeDelivery(request: Request, topic: "DISPUTES_CREATE" | "DISPUTES_UPDATE"): Promise<Response> {
  const webhook = await authenticateWebhook(request, topic);
  let json: unknown;
  try {
    json = parseJsonKeepingLongIntegers(webhook.rawBody);
  } catch {
    return new Response("Webhook body is not JSON", { status: 400 });
  }
  const parsed = parseBody(disputeBody, json);
  if (!parsed.ok) return badPayload(`${webhook.topic} body: ${parsed.message}`);
  // An inquiry on a payment that is no order's names none: nothing of a refund to judge.
  if (webhook.session && parsed.data.order_id) await readOrderAgain(db, webhook.shop, shopifyGid("Order", parsed.data.order_id), new Date());
  return new Response();
}
