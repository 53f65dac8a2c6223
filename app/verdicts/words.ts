import type { Contract } from "../contracts/schema";
import { formatMoney, toMinorUnits } from "../money/currency";
import { CLASSES } from "./filters";

/**
 * Words for people, shared by every screen, alert and export (nothing here imports a screen).
 * An order is its name (#1340), as the admin's search finds it; "order 9007199255858359" (the
 * number in the admin's address) only while Shopify has given no name for it.
 */
export const orderLabel = (order: { orderName: string | null; orderId: string }): string => order.orderName ?? `order ${order.orderId}`;

export const upperFirst = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** A verdict's reason in plain words, from the contract's own text where it has one. */
export function reasonInWords(contract: Contract, status: string, reason: string | null): string {
  const contradiction = contract.contradicted_when.find((c) => c.id === reason);
  if (contradiction) return contradiction.reason;
  const rule = contract.rules.find((r) => r.id === reason);
  if (rule) return rule.reason;
  switch (status) {
    case "VERIFIED":
      // A contract without a webhook channel judges the shop's history from one bulk read.
      return contract.channels.some((c) => c.verifier === "webhook")
        ? "Shopify recorded it as claimed; its webhook arrived."
        : "Shopify holds it as recorded, read from the shop's history.";
    case "UNVERIFIABLE":
      return `Shopify showed no evidence of this refund within ${Math.round(contract.timing.timeout_ms / 86_400_000)} days. Check the order.`;
    case "PENDING":
      return "Waiting for Shopify's evidence.";
    default:
      return reason ?? "";
  }
}

/** The contradictions that mean a refund was made twice: never retry a refund on that order. */
export const DUPLICATE_REASONS: readonly string[] = ["duplicate_refund_present", "duplicate_refund_in_history"];

export const VERDICT_TONES = {
  VERIFIED: "success",
  CONTRADICTED: "critical",
  FAILED: "critical",
  UNVERIFIABLE: "warning",
  PENDING: "info",
} as const;

export const VERDICT_LABELS: Record<string, string> = {
  VERIFIED: "Verified",
  CONTRADICTED: "Contradicted",
  FAILED: "Failed",
  UNVERIFIABLE: "Unverifiable",
  PENDING: "Pending",
};

/** One label per contradiction class, for badges, filters and messages. */
export const CLASS_LABELS: Record<string, string> = {
  duplicate: "Duplicate refund",
  wrong_amount: "Wrong amount",
  wrong_order: "Wrong order",
  pre_existing: "Pre-existing refund",
};

/** The label of a class, named by its key ("duplicate") or by the contract's words ("duplicate side effect"), as operations store it. */
export function classLabel(value: string): string {
  const key = Object.entries(CLASSES).find(([k, words]) => k === value || words === value)?.[0];
  return (key && CLASS_LABELS[key]) ?? value;
}

/** "$25.00" from a decimal string, exactly; the amount and its code when it cannot be read as money. */
export function money(amount: string | null, currency: string | null): string {
  if (amount === null) return "an unknown amount";
  if (!currency) return amount;
  const minor = toMinorUnits(amount, currency);
  return minor === undefined ? `${amount} ${currency}` : formatMoney(minor, currency);
}

/** Where a refund came from, as a person reads it. */
export const ORIGIN_LABELS: Record<string, string> = { webhook: "Webhook", reconciliation: "Found by sweep", app: "Issued in app", backfill: "From history" };
