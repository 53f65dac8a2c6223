import { z } from "zod";
import { parseJsonKeepingLongIntegers } from "./lossless-json";
import { sumDecimals } from "../lib/money/decimal";
import { shopifyGid, shopifyGidSchema, shopifyNumberSchema } from "../shopify/ids";

// The refund's and the order's ids are keys (a refund's deliveries, an order's recent refunds): Shopify's spelling or refused.
const refundWebhookSchema = z.object({
  id: shopifyNumberSchema,
  order_id: shopifyNumberSchema,
  created_at: z.string().min(1),
  admin_graphql_api_id: shopifyGidSchema("Refund").optional(),
  // The staff member who made it; null for a refund no person made (an app's, an automation's). Anything else is not a person's id: unknown.
  user_id: shopifyNumberSchema.nullish().catch(null),
  transactions: z
    .array(
      z.object({
        kind: z.string(),
        status: z.string().nullish(),
        amount: z.union([z.string(), z.number()]).transform(String),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/)
          .nullish(),
        gateway: z.string().nullish(),
        // The Shopify POS device that processed it (decision 031); anything but Shopify's digits is none.
        device_id: shopifyNumberSchema.nullish().catch(null),
      }),
    )
    .default([]),
});

/** What the app keeps of a refunds/create delivery: identifiers, the claimed time and amount, nothing personal. */
export interface DeliveredRefund {
  refundGid: string;
  orderGid: string;
  createdAt: string;
  amount: string;
  currency: string | null;
  transactionStatuses: string[];
  /** The Shopify user id of the staff member who made it, when the payload names one (the refund limits, decision 030). */
  staffUserId: string | null;
  /** The POS device that processed one of its transactions, as a gid, when one did (where it was made, decision 031). */
  posDeviceId: string | null;
}

export class RefundPayloadError extends Error {}

export function parseRefundWebhook(rawBody: string): DeliveredRefund {
  let json: unknown;
  try {
    json = parseJsonKeepingLongIntegers(rawBody);
  } catch {
    throw new RefundPayloadError("body is not JSON");
  }
  const parsed = refundWebhookSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RefundPayloadError(`refunds/create payload: ${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  const refund = parsed.data;
  if (Number.isNaN(Date.parse(refund.created_at))) throw new RefundPayloadError("refunds/create payload: created_at is not a timestamp");
  const refundTransactions = refund.transactions.filter((t) => t.kind.toLowerCase() === "refund");
  const devices = refund.transactions.flatMap((t) => (t.device_id ? [t.device_id] : []));
  const currencies = [...new Set(refundTransactions.map((t) => t.currency).filter((c): c is string => Boolean(c)))];
  return {
    refundGid: refund.admin_graphql_api_id ?? shopifyGid("Refund", refund.id),
    orderGid: shopifyGid("Order", refund.order_id),
    createdAt: refund.created_at,
    amount: sumDecimals(refundTransactions.map((t) => t.amount)),
    currency: currencies.length === 1 ? currencies[0] : null,
    transactionStatuses: refundTransactions.map((t) => (t.status ?? "").toUpperCase()),
    staffUserId: refund.user_id ?? null,
    posDeviceId: devices.length ? shopifyGid("PointOfSaleDevice", devices[0]) : null,
  };
}
