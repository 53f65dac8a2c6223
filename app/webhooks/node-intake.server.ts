import type { IncomingMessage, ServerResponse } from "node:http";
import { refuseTooLarge } from "../lib/http/too-large.server";
import { logger } from "../lib/logging/logger.server";
import { MAX_WEBHOOK_BYTES } from "./authenticate.server";
import { receiveRefundDelivery } from "./refund-intake.server";

/** Where Shopify sends refunds/create (shopify.app.toml): the one path served before Remix. */
export const REFUND_DELIVERY_PATH = "/webhooks/refunds/create";

class TooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > MAX_WEBHOOK_BYTES) return reject(new TooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_WEBHOOK_BYTES) {
        req.removeAllListeners("data");
        req.pause();
        reject(new TooLarge());
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

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
      const body = await readBody(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      const result = await receiveRefundDelivery({ method: "POST", headers, body });
      answer(res, result.status, result.text);
    } catch (error) {
      if (error instanceof TooLarge) {
        refuseTooLarge(req, res, "Webhook body too large");
        return;
      }
      logger.error({ err: error }, "refunds/create intake failed");
      if (!res.headersSent) answer(res, 500, "Internal Server Error");
    }
  })();
  return true;
}
