import { ShopifyError } from "@shopify/shopify-api";
import type { z } from "zod";
import { readRequestBody } from "../lib/http/bounded-body.server";
import { logger } from "../lib/logging/logger.server";
import { authenticate } from "../shopify.server";
import { parseBody } from "./compliance-payloads";
import { parseJsonKeepingLongIntegers } from "./lossless-json";

export type AuthenticatedWebhook = Awaited<ReturnType<typeof authenticate.webhook>> & { rawBody: string };

/** Refund payloads are small; Shopify's largest resources stay well under this. */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;
/** Shopify retries a failed delivery for 4 hours; a delivery triggered longer ago than this is a replay. */
const MAX_DELIVERY_AGE_MS = 48 * 3600_000;
export const STALE_DELIVERY = "Stale delivery: triggered more than 48 hours ago";

/** Whether X-Shopify-Triggered-At says a replay (an unreadable or missing time is not one). */
export function isStaleDelivery(triggeredAt: string | null | undefined, nowMs: number): boolean {
  const at = Date.parse(triggeredAt ?? "");
  return Number.isFinite(at) && nowMs - at > MAX_DELIVERY_AGE_MS;
}

const refuse = (status: number, message: string) => new Response(message, { status });
// The rest of the body is never read: the connection closes after the answer.
const tooLarge = () => new Response("Webhook body too large", { status: 413, headers: { Connection: "close" } });

/** Reads at most MAX_WEBHOOK_BYTES: a larger body is refused (413) without being read whole. */
export async function readLimited(request: Request): Promise<string> {
  const body = await readRequestBody(request, MAX_WEBHOOK_BYTES);
  if (!body) throw tooLarge();
  return new TextDecoder("utf-8", { fatal: false }).decode(body);
}

/**
 * authenticate.webhook answers 405 / 401 / 400 itself. Around it: the body is read once, within a
 * size limit; a correctly signed body that is not JSON is a 400 (the library would throw a
 * SyntaxError, a 500); and the raw body is kept, because Shopify's numeric ids exceed 2^53 and
 * JSON.parse loses their digits.
 */
export async function authenticateWebhook(request: Request, expectedTopic?: string): Promise<AuthenticatedWebhook> {
  if (request.method !== "POST") throw refuse(405, "Method Not Allowed");
  const rawBody = await readLimited(request);
  const replay = new Request(request.url, { method: "POST", headers: request.headers, body: rawBody });
  let webhook: Awaited<ReturnType<typeof authenticate.webhook>>;
  try {
    webhook = await authenticate.webhook(replay);
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof SyntaxError) throw refuse(400, "Webhook body is not JSON");
    // A signed delivery whose headers the library refuses (InvalidShopError for a shop header that
    // is not a shop domain) is bad input, not a server fault.
    if (error instanceof ShopifyError) throw refuse(400, `Webhook refused: ${error.message}`);
    throw error;
  }
  if (expectedTopic && webhook.topic !== expectedTopic) throw refuse(400, `This address takes ${expectedTopic} deliveries, not ${webhook.topic}`);
  if (isStaleDelivery(webhook.triggeredAt, Date.now())) throw refuse(400, STALE_DELIVERY);
  return { ...webhook, rawBody };
}

/**
 * The delivery's body, parsed, when it is about the shop its header names. Shopify signs the body
 * only: a signed body of shop X posted with shop Y's X-Shopify-Shop-Domain must not act on Y. A
 * body that names another shop is refused (401) and logged; nothing is changed.
 */
export function bodyOfHeaderShop<T extends z.ZodTypeAny>(webhook: AuthenticatedWebhook, schema: T, shopOf: (body: z.output<T>) => string): z.output<T> {
  let json: unknown;
  try {
    json = parseJsonKeepingLongIntegers(webhook.rawBody);
  } catch {
    throw refuse(400, "Webhook body is not JSON");
  }
  const parsed = parseBody(schema, json);
  if (!parsed.ok) throw refuse(400, `${webhook.topic} body: ${parsed.message}`);
  const named = shopOf(parsed.data).toLowerCase();
  if (named !== webhook.shop.toLowerCase()) {
    logger.warn({ topic: webhook.topic, header: webhook.shop, body: named, webhookId: webhook.webhookId }, "webhook refused: its body is another shop's");
    throw refuse(401, "The delivery's body is about another shop than its X-Shopify-Shop-Domain header");
  }
  return parsed.data;
}

export function badPayload(message: string): Response {
  return new Response(message, { status: 422 });
}

/** Webhook routes take POST only; without a loader Remix would answer a GET with 400, not 405. */
export function postOnly(): Response {
  throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
