import { z } from "zod";
import { shopifyGid, shopifyNumberSchema } from "../shopify/ids";

/**
 * The bodies of the compliance topics and of app/uninstalled, as Shopify documents them. Shopify
 * signs the body only: the shop a delivery acts on is the one its body names, and the
 * X-Shopify-Shop-Domain header must agree with it.
 */
const shopDomain = z.string({ required_error: "the body names no shop" }).min(1, "the body names no shop");
// The orders whose evidence is handed over or erased, as gids: the operations are found by them.
const orderIds = z
  .array(shopifyNumberSchema)
  .default([])
  .transform((numbers) => numbers.map((number) => shopifyGid("Order", number)));

export const COMPLIANCE_BODIES = {
  CUSTOMERS_DATA_REQUEST: z.object({
    shop_domain: shopDomain,
    orders_requested: orderIds,
    customer: z.object({ id: shopifyNumberSchema.optional() }).optional(),
    data_request: z.object({ id: shopifyNumberSchema.optional() }).optional(),
  }),
  CUSTOMERS_REDACT: z.object({ shop_domain: shopDomain, orders_to_redact: orderIds, customer: z.object({ id: shopifyNumberSchema.optional() }).optional() }),
  SHOP_REDACT: z.object({ shop_domain: shopDomain }),
} as const;

export type ComplianceTopic = keyof typeof COMPLIANCE_BODIES;

/** app/uninstalled carries the Shop resource: its myshopify domain is the shop's own name. */
export const UNINSTALLED_BODY = z.object({ myshopify_domain: shopDomain });

/** The body parsed, or why it is refused (in words, for the 400). */
export function parseBody<T extends z.ZodTypeAny>(schema: T, json: unknown): { ok: true; data: z.output<T> } | { ok: false; message: string } {
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, message: `${issue.path.join(".") || "body"}: ${issue.message}` };
}
