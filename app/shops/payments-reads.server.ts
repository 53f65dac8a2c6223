import { z } from "zod";
import { PAYMENTS_ACCOUNT_QUERY, QUERY_COSTS } from "../shopify/admin/documents";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { fieldFailure, malformed, type Failed } from "../shopify/admin/nodes.server";
import type { ShopifyGraphqlError } from "../shopify/admin/transport";
import type { PayoutSchedule } from "./payout-schedule";
import { payoutSchedule } from "./payout-schedule.server";

/** Shopify answers ACCESS_DENIED for the account without read_shopify_payments_accounts, for its ledger without read_shopify_payments_payouts. */
export const isAccessDenied = (failure: Failed) => failure.code === "ACCESS_DENIED";

export type PaymentsAccess = "active" | "none" | "not_granted";

/**
 * An error Shopify answered somewhere in the account. On the account, or on a field of it that
 * cannot be null, graphql answers the whole account null: that null is the error's, never "this
 * shop has no Shopify Payments". On a field that can be null, that field is null: the error's too.
 */
export const accountErrorOf = (fieldErrors: ShopifyGraphqlError[]) => fieldErrors.find((e) => e.path?.[0] === "shopifyPaymentsAccount");

/** The account as PAYMENTS_ACCOUNT_QUERY reads it: whether there is one, parsed at the door; its schedule parsed on its own. */
const paymentsAccountAnswer = z.object({
  shopifyPaymentsAccount: z.object({ id: z.string(), country: z.string().nullish(), payoutSchedule: z.unknown() }).nullable(),
});

/**
 * Whether the shop has a Shopify Payments account the app may read, and its payout schedule (with
 * the account's country): null when the answer holds none the late-money rule can use, which then
 * falls back to its 7 days (decision 032). A schedule Shopify answers oddly never costs the app the account.
 */
export async function readPaymentsAccount(
  gateway: ShopifyGateway,
  shop: string,
): Promise<{ ok: true; access: PaymentsAccess; schedule: PayoutSchedule | null | undefined } | Failed> {
  const answer = await gateway.request(shop, PAYMENTS_ACCOUNT_QUERY, {}, QUERY_COSTS.paymentsAccount, { waitThrottled: true });
  if (!answer.ok) return isAccessDenied(answer) ? { ok: true, access: "not_granted", schedule: null } : answer;
  const parsed = paymentsAccountAnswer.safeParse(answer.data);
  if (!parsed.success) return malformed("malformed response: the Shopify Payments account is not as the schema says");
  const account = parsed.data.shopifyPaymentsAccount;
  const error = accountErrorOf(answer.fieldErrors);
  if (error && !account)
    return error.extensions?.code === "ACCESS_DENIED"
      ? { ok: true, access: "not_granted", schedule: null }
      : fieldFailure(error.extensions?.code ?? "GRAPHQL_ERROR", error.message);
  if (!account) return { ok: true, access: "none", schedule: null };
  // The account is there, but a field of it (its schedule, its country) is the error's null: the schedule stored stays.
  if (error) return { ok: true, access: "active", schedule: undefined };
  const raw = account.payoutSchedule;
  const schedule = payoutSchedule.safeParse(typeof raw === "object" && raw !== null ? { ...raw, country: account.country ?? null } : raw);
  return { ok: true, access: "active", schedule: schedule.success ? schedule.data : null };
}
