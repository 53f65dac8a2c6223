import { z } from "zod";
import { parseJsonKeepingLongIntegers } from "./lossless-json";
import { sumDecimals } from "../money/decimal";

const id = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(String);

const refundWebhookSchema = z.object({
  id,
  order_id: id,
  created_at: z.string().min(1),
  admin_graphql_api_id: z
    .string()
    .regex(/^gid:\/\/shopify\/Refund\/\d+$/)
    .optional(),
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
  const currencies = [...new Set(refundTransactions.map((t) => t.currency).filter((c): c is string => Boolean(c)))];
  return {
    refundGid: refund.admin_graphql_api_id ?? `gid://shopify/Refund/${refund.id}`,
    orderGid: `gid://shopify/Order/${refund.order_id}`,
    createdAt: refund.created_at,
    amount: sumDecimals(refundTransactions.map((t) => t.amount)),
    currency: currencies.length === 1 ? currencies[0] : null,
    transactionStatuses: refundTransactions.map((t) => (t.status ?? "").toUpperCase()),
  };
}
