import type { Contract } from "../contracts/schema";
import { CLASSES } from "./filters";

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
