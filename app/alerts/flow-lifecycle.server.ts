import { signedWith } from "../lib/crypto/hmac";
import type { PrismaClient } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";
import { z } from "zod";
import { logger } from "../lib/logging/logger.server";
import { readLimited } from "../webhooks/authenticate.server";
import { flowTriggerByDefinitionId } from "./flow-triggers";
import { config } from "../lib/config/env.server";

/** The callback's body, as Shopify's guide documents it. */
export const LifecycleCallback = z.object({
  flow_trigger_definition_id: z.string().min(1).max(255),
  has_enabled_flow: z.boolean(),
  shop_id: z.union([z.number(), z.string()]),
  shopify_domain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "shopify_domain is not a myshopify.com domain"),
  timestamp: z.string().datetime({ offset: true }),
});

export type LifecycleOutcome = "recorded" | "stale" | "unknown_trigger";

/**
 * Keeps, per shop and trigger, whether a workflow uses it. Shopify's rule: a callback with a newer
 * timestamp wins, an older one is ignored (they may arrive out of order).
 */
export async function recordTriggerLifecycle(db: PrismaClient, callback: z.infer<typeof LifecycleCallback>): Promise<LifecycleOutcome> {
  const trigger = flowTriggerByDefinitionId(callback.flow_trigger_definition_id);
  if (!trigger) return "unknown_trigger";
  // Kept even before the shop's first visit has stored its session (managed install): Flow may call first.
  const key = { shop: callback.shopify_domain, definitionId: trigger.handle };
  const reportedAt = new Date(callback.timestamp);
  const newer = () =>
    db.flowTriggerUsage.updateMany({ where: { ...key, reportedAt: { lt: reportedAt } }, data: { enabled: callback.has_enabled_flow, reportedAt } });
  if ((await newer()).count) return "recorded";
  if (await createOnce(() => db.flowTriggerUsage.create({ data: { ...key, enabled: callback.has_enabled_flow, reportedAt } }))) return "recorded";
  // Another callback created the row meanwhile: this one still wins if it is the newer.
  return (await newer()).count ? "recorded" : "stale";
}

const answer = (status: number, message: string) => new Response(message, { status, headers: { "Content-Type": "text/plain" } });

/** POST /flow/trigger-lifecycle: a body not signed with the app's secret is refused (401) before it is parsed, and stored nowhere; a malformed one is a 400. */
export async function handleTriggerLifecycle(db: PrismaClient, request: Request, secret = config().SHOPIFY_API_SECRET): Promise<Response> {
  if (request.method !== "POST") return answer(405, "Method Not Allowed");
  let rawBody: string;
  try {
    rawBody = await readLimited(request);
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  // Flow signs its lifecycle callback as Shopify signs webhooks: base64 HMAC-SHA256 of the raw body with the app's secret.
  if (!signedWith(secret, rawBody, request.headers.get("x-shopify-hmac-sha256"), "base64"))
    return answer(401, "Unauthorized: the HMAC signature does not match");
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return answer(400, "The body is not JSON");
  }
  const parsed = LifecycleCallback.safeParse(json);
  if (!parsed.success)
    return answer(400, `Not a Flow trigger lifecycle callback: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  // Any answer but 2xx stops the merchant from turning the workflow on: a trigger this app does not
  // know is acknowledged and logged, not refused.
  const outcome = await recordTriggerLifecycle(db, parsed.data);
  if (outcome === "unknown_trigger")
    logger.warn(
      { shop: parsed.data.shopify_domain, definitionId: parsed.data.flow_trigger_definition_id },
      "Flow lifecycle callback for a trigger this app does not have",
    );
  return answer(200, outcome);
}
