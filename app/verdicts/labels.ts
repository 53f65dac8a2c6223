/**
 * A verdict's word and badge tone, the same on every screen, message and export and in the order
 * page's block. This module imports nothing: the block (extensions/order-refund-verdicts) bundles
 * it, and Shopify keeps a UI extension's script small. `words.ts` gives it to the app.
 */
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
