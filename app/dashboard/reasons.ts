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
      return "Shopify recorded it as claimed; its webhook arrived.";
    case "UNVERIFIABLE":
      return `Shopify showed no evidence of this refund within ${Math.round(contract.timing.timeout_ms / 86_400_000)} days. Check the order.`;
    case "PENDING":
      return "Waiting for Shopify's evidence.";
    default:
      return reason ?? "";
  }
}

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
