import { breachesSentence, type Breach } from "../guardrails/limits";

/**
 * Alerts on refunds made outside the app (Shopify admin, POS, another app) that went over one of
 * the shop's refund limits (decision 030): nothing could stop them, so each LimitBreach becomes one
 * AlertEvent of its refund's operation under this kind, sent as the shop's alert settings say.
 */

/** The alert's kind (AlertEvent.verdict) and the alert settings' choice that turns it on or off ("Refunds over a limit"). */
export const OVER_LIMIT = "OVER_LIMIT";

/** The alert's headline, and the digest's. */
export const OVER_LIMIT_TITLE = "Refund over a limit";

export const isOverLimitAlert = (verdict: string): boolean => verdict === OVER_LIMIT;

const OUTSIDE = "outside the app (Shopify admin, POS or another app)";

/**
 * The alert's sentence: who refunded how much on which order, and the limits it went over in words.
 * `staffName` is the person Shopify named as making it (their name, or "Staff member 56" when they
 * never opened the app); null when it named nobody: an app or an automation made it.
 */
export function overLimitSentence(refund: { amount: string; order: string }, staffName: string | null, breaches: Breach[]): string {
  const limits = breaches.length ? breachesSentence(breaches, staffName ? `${staffName}'s` : "their") : "The evidence page says which limit it went over.";
  return staffName
    ? `${staffName} refunded ${refund.amount} on ${refund.order} ${OUTSIDE}, where nothing could stop it. ${limits}`
    : `${refund.amount} was refunded on ${refund.order} outside the app, by no staff member Shopify named (an app or an automation), where nothing could stop it. ${limits}`;
}
