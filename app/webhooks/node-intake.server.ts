import type { IncomingMessage, ServerResponse } from "node:http";
import { readNodeBody } from "../lib/http/bounded-body.server";
import { refuseTooLarge } from "../lib/http/too-large.server";
import { logger } from "../lib/logging/logger.server";
import { MAX_WEBHOOK_BYTES } from "./authenticate.server";
import { receiveRefundDelivery } from "./refund-intake.server";

/** Where Shopify sends refunds/create (shopify.app.toml): the one path served before Remix. */
export const REFUND_DELIVERY_PATH = "/webhooks/refunds/create";

function answer(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/**
 * refunds/create straight from Node's HTTP server: no Remix request, no session load, no express.
 * Answers exactly as the Remix route does (both call receiveRefundDelivery). Returns false for
 * any other request, which the server hands to Remix.
 */
export function handleRefundDeliveryNode(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.url !== REFUND_DELIVERY_PATH) return false;
  void (async () => {
    try {
      if (req.method !== "POST") return answer(res, 405, "Method Not Allowed", { Allow: "POST" });
      const read = await readNodeBody(req, MAX_WEBHOOK_BYTES);
      if (!read) return refuseTooLarge(req, res, "Webhook body too large");
      const body = read.toString("utf8");
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      const result = await receiveRefundDelivery({ method: "POST", headers, body });
      answer(res, result.status, result.text);
    } catch (error) {
      logger.error({ err: error }, "refunds/create intake failed");
      if (!res.headersSent) answer(res, 500, "Internal Server Error");
    }
  })();
  return true;
}
