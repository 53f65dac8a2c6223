import { ShopifyError } from "@shopify/shopify-api";
import { authenticate } from "../shopify.server";

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
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_WEBHOOK_BYTES) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_WEBHOOK_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
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

export function badPayload(message: string): Response {
  return new Response(message, { status: 422 });
}

/** Webhook routes take POST only; without a loader Remix would answer a GET with 400, not 405. */
export function postOnly(): Response {
  throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
