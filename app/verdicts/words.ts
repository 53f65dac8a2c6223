import type { Contract } from "../contracts/schema";
import { formatMoney, toMinorUnits } from "../lib/money/currency";
import { CLASSES } from "./filters";
import type { MadeIn } from "./made";

/**
 * Words for people, shared by every screen, alert and export (nothing here imports a screen).
 * An order is its name (#1340), as the admin's search finds it; "order 9007199255858359" (the
 * number in the admin's address) only while Shopify has given no name for it.
 */
export const orderLabel = (order: { orderName: string | null; orderId: string }): string => order.orderName ?? `order ${order.orderId}`;

export const upperFirst = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** What a reason's sentence may say: the amount the refund asked for and what Shopify recorded, when known. */
export interface ReasonFacts {
  requested: { amount: string | null; currency: string | null };
  recorded?: { amount: string | null; currency: string | null } | null;
}

/**
 * "Shopify recorded $21.00; the refund asked for $20.57 ($0.43 more)." when both amounts are
 * known in one currency; undefined otherwise. The evidence page, the rows, emails and Slack say it alike.
 */
export function amountDifference(facts: ReasonFacts): { sentence: string; difference: string } | undefined {
  const { requested, recorded } = facts;
  const currency = requested.currency;
  if (!recorded?.amount || !requested.amount || !currency || (recorded.currency ?? currency) !== currency) return undefined;
  const asked = toMinorUnits(requested.amount, currency);
  const got = toMinorUnits(recorded.amount, currency);
  if (asked === undefined || got === undefined) return undefined;
  const more = got >= asked;
  const difference = formatMoney(more ? got - asked : asked - got, currency);
  return {
    sentence: `Shopify recorded ${formatMoney(got, currency)}; the refund asked for ${formatMoney(asked, currency)} (${difference} ${more ? "more" : "less"}).`,
    difference,
  };
}

/**
 * A merchant's sentence for each reason code of every contract version (a test fails when one has
 * none). The contract's own reason text is an engineer's, shown only in "Technical details".
 */
const REASON_SENTENCES: Record<string, (facts: ReasonFacts) => string> = {
  refund_amount_mismatch: (facts) =>
    amountDifference(facts)?.sentence ??
    `Shopify recorded a different amount than the ${money(facts.requested.amount, facts.requested.currency)} the refund asked for.`,
  refund_currency_mismatch: ({ requested }) => `Shopify recorded the refund in another currency than the ${requested.currency ?? "one"} it asked for.`,
  refund_on_wrong_order: () => "Shopify recorded this refund on another order than the one it was for.",
  refund_predates_operation: () => "This refund was already in Shopify before the app was asked to check it, so it says nothing about this request.",
  duplicate_refund_present: () => "Shopify holds another refund on this order that repeats this one. Do not retry.",
  duplicate_refund_in_history: () =>
    "Shopify holds another refund of the same amount on this order, made within 10 minutes of this one. Check that the customer was refunded once.",
  transaction_failed: ({ requested }) =>
    `The refund of ${money(requested.amount, requested.currency)} failed at the payment gateway: the customer has not been paid this money.`,
  refund_not_in_shop: () => "Shopify does not show this refund in the shop: the app looked ten times after it should have appeared.",
  order_not_in_shop: () =>
    "Shopify shows neither this refund nor its order in your shop: the notice named an order you do not have, or one deleted since or older than the 60 days Shopify shows the app. Nothing to do; no alert was sent.",
  // Money at risk twice (contract shopify.refund.exposure).
  chargeback_lost_after_refund: () =>
    "A chargeback on this refunded order was lost or accepted: the customer got this money back twice, from you and from their bank.",
  dispute_says_credit_not_processed: () =>
    "The customer disputes the charge saying the refund never came. Answer the dispute with this refund's proof: its date, amount and card reference.",
  dispute_opened_after_refund: () => "A chargeback was opened on this order after the refund. Answer it with this refund's proof before it is lost.",
  refund_on_disputed_order: () => "This order has an open chargeback: if it is lost, the customer is paid twice. Answer it with this refund's proof.",
  refunded_past_payment: () => "Together, this order's refunds (store credit too) give the customer back more than they paid.",
  store_credit_and_payment: () => "The order was refunded to store credit and to the customer's payment for the same money.",
  item_refunded_past_quantity: () => "An item of this order was refunded more times than it was bought.",
  order_not_readable_in_window: () => "The app could not read this order from Shopify before the chargeback window closed.",
  // Where the money went (contract shopify.refund.settled).
  ledger_amount_mismatch: ({ requested }) =>
    `Shopify Payments took another amount from your balance than the ${money(requested.amount, requested.currency)} refunded.`,
  payout_failed: () => "The payout that carried this refund failed at your bank or was canceled by Shopify.",
  refund_reversed: () => "Shopify Payments reversed this refund: the money came back to your balance and did not reach the customer.",
};

/** The merchant's sentence for a reason code; undefined for a code this module has no words for. */
export function reasonSentence(reason: string, facts: ReasonFacts): string | undefined {
  return REASON_SENTENCES[reason]?.(facts);
}

/** A verdict's reason in a merchant's words. A refund still being checked shows no reason: what it points to is not final. */
export function reasonInWords(contract: Contract, status: string, reason: string | null, facts: ReasonFacts): string {
  if (status === "PENDING") return "Being checked with Shopify; the verdict follows shortly.";
  const sentence = reason ? reasonSentence(reason, facts) : undefined;
  if (sentence) return sentence;
  switch (status) {
    case "VERIFIED":
      // A contract without a webhook channel judges the shop's history from one bulk read.
      return contract.channels.some((c) => c.verifier === "webhook")
        ? "Shopify recorded this refund as asked, and told the app about it."
        : "Shopify holds this refund as recorded, read from the shop's history.";
    case "UNVERIFIABLE":
      return `Shopify showed no evidence of this refund within ${Math.round(contract.timing.timeout_ms / 86_400_000)} days. Check the order.`;
    default:
      return "Not what was claimed: the evidence page says why.";
  }
}

/** The contradictions that mean a refund was made twice: never retry a refund on that order. */
export const DUPLICATE_REASONS: readonly string[] = ["duplicate_refund_present", "duplicate_refund_in_history"];

export { VERDICT_LABELS, VERDICT_TONES } from "./labels";

/** One label per contradiction class, for badges, filters and messages. */
export const CLASS_LABELS: Record<string, string> = {
  duplicate: "Duplicate refund",
  wrong_amount: "Wrong amount",
  wrong_order: "Wrong order",
  pre_existing: "Pre-existing refund",
};

/** The classes of where the money went (contract shopify.refund.settled): settlements store them, the refunds' filters do not list them. */
const MONEY_CLASS_LABELS: Record<string, string> = {
  "payout failed": "Payout failed",
  "refund reversed": "Refund reversed",
  // Money at risk twice (contract shopify.refund.exposure).
  "paid twice": "Paid twice",
  "open chargeback": "Chargeback open",
  "more back than paid": "More back than paid",
  "store credit and cash": "Store credit and cash",
};

/** The label of a class, named by its key ("duplicate") or by the contract's words ("duplicate side effect"), as operations store it. */
export function classLabel(value: string): string {
  const key = Object.entries(CLASSES).find(([k, words]) => k === value || words === value)?.[0];
  return (key && CLASS_LABELS[key]) ?? MONEY_CLASS_LABELS[value] ?? value;
}

/** "$25.00" from a decimal string, exactly; the amount and its code when it cannot be read as money. */
export function money(amount: string | null, currency: string | null): string {
  if (amount === null) return "an unknown amount";
  if (!currency) return amount;
  const minor = toMinorUnits(amount, currency);
  return minor === undefined ? `${amount} ${currency}` : formatMoney(minor, currency);
}

/** A refund's place in the review queue, as a person reads it (one not in the queue has no words). */
export const REVIEW_LABELS: Record<string, string> = { open: "Needs review", resolved: "Resolved" };

/**
 * How the app learned of a refund (Operation.origin): for "Technical details", the CSV's Source and
 * the history's filter, not where the refund was made (that is `madeInWords`).
 */
export const ORIGIN_LABELS: Record<string, string> = {
  webhook: "Shopify's notice of the refund",
  reconciliation: "The app's sweep of recently changed orders",
  app: "Issued from this app's refund form",
  backfill: "The shop's history, read at install",
};

/** Where a refund was made, as the dashboard's filter offers it (decision 031). */
export const MADE_LABELS: Record<MadeIn, string> = {
  admin: "In Shopify admin",
  pos: "On Point of Sale",
  app: "By another app",
  this_app: "In this app",
  unknown: "Not known",
};

/** What a sentence about where a refund was made may name: the staff member by the name Shopify gave (null: a staff member it did not name). */
export interface MadeNames {
  made: MadeIn | null;
  /** Shopify named a staff member (payload's user_id, or who asked in this app). */
  staff: boolean;
  /** Their name, when Shopify gave it to the app (an online session of theirs). */
  staffName: string | null;
  app: string | null;
}

/**
 * Where a refund was made and by whom, in a merchant's words: "Made in Shopify admin by Dana
 * Whitfield", "Made on Point of Sale", "Made by the app Returns Pro", "Made in this app by Ada
 * Lovelace". Never a guess: a person Shopify named without a name the app knows is "a staff
 * member"; what Shopify does not say is said not known.
 */
export function madeInWords({ made, staff, staffName, app }: MadeNames): string {
  const by = staffName ? ` by ${staffName}` : staff ? " by a staff member" : "";
  switch (made) {
    case "this_app":
      return `Made in this app${by}`;
    case "admin":
      return `Made in Shopify admin${by || " by a staff member"}`;
    case "pos":
      return `Made on Point of Sale${by}`;
    case "app":
      return app ? `Made by the app ${app}` : "Made by another app";
    default:
      return by ? `Made in Shopify${by}` : "Made in Shopify; who made it is not known";
  }
}

/** What is stored of where a refund was made, for "Technical details": "madeIn admin, user 42", "madeIn app, app Returns Pro", "not read". */
export function madeTechnical(row: { madeIn: string | null; madeByStaff: string | null; madeByApp: string | null }): string {
  if (row.madeIn === null && row.madeByStaff === null) return "not read";
  return [`madeIn ${row.madeIn ?? "null"}`, row.madeByStaff ? `user ${row.madeByStaff}` : null, row.madeByApp ? `app ${row.madeByApp}` : null]
    .filter(Boolean)
    .join(", ");
}

/** The same in a list's "Made" column, where the heading says "made": "In Shopify admin by Dana Whitfield". */
export const madeCell = (sentence: string): string => upperFirst(sentence.replace(/^Made /, ""));
