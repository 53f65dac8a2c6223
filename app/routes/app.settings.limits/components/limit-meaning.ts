import { formatMoney } from "../../../lib/money/currency";
import { parseAmount } from "../../../lib/money/typed-amount";

/**
 * What a limit does, in the shop's currency, as the person types it: the help under each field of
 * the limits page. Pure. A value that does not parse asks for one that does (its error says what
 * is wrong once the form is posted).
 */

export type ShopField = "perRefund" | "dailyPerStaff" | "shopHourlyCount" | "shopHourlyAmount" | "shopDailyCount" | "shopDailyAmount";

const EVERY_REFUND = "Every refund the app knows of counts, made in the app or elsewhere.";

/** "$100.00", or null for an empty or unreadable amount. */
function amountIn(text: string, currency: string | null): string | null {
  if (!currency || !text.trim()) return null;
  const parsed = parseAmount(text, currency);
  return parsed.ok ? formatMoney(parsed.minor, currency) : null;
}

function countOf(text: string): number | null {
  return /^\d{1,7}$/.test(text.trim()) && Number(text) > 0 ? Number(text) : null;
}

const SHOP_WORDS: Record<ShopField, { kind: "amount" | "count"; set: (limit: string) => string; off: string }> = {
  perRefund: {
    kind: "amount",
    set: (limit) => `A refund over ${limit} waits for an approver, unless the person who asks has a limit of their own below.`,
    off: "Off: no refund waits for its amount alone.",
  },
  dailyPerStaff: {
    kind: "amount",
    set: (limit) => `Once a person's refunds in any 24 hours would pass ${limit}, their next refund waits for approval. Catches one refund split into several.`,
    off: "Off: a person's refunds are not added up.",
  },
  shopHourlyCount: {
    kind: "count",
    set: (limit) => `After ${limit} in any hour, the shop's next refund waits for approval. ${EVERY_REFUND}`,
    off: "Off: refunds in an hour are not counted.",
  },
  shopHourlyAmount: {
    kind: "amount",
    set: (limit) => `Once the shop's refunds in any hour would pass ${limit}, the next waits for approval. ${EVERY_REFUND}`,
    off: "Off: the shop's refunds in an hour are not added up.",
  },
  shopDailyCount: {
    kind: "count",
    set: (limit) => `After ${limit} in any 24 hours, the shop's next refund waits for approval. ${EVERY_REFUND}`,
    off: "Off: refunds in 24 hours are not counted.",
  },
  shopDailyAmount: {
    kind: "amount",
    set: (limit) => `Once the shop's refunds in any 24 hours would pass ${limit}, the next waits for approval. ${EVERY_REFUND}`,
    off: "Off: the shop's refunds in 24 hours are not added up.",
  },
};

const refunds = (count: number) => `${count.toLocaleString("en-US")} refund${count === 1 ? "" : "s"}`;

/** What one of the shop's limits does with the value typed, in `currency` (null: the shop's currency is not known yet). */
export function shopLimitMeaning(field: ShopField, value: string, currency: string | null): string {
  const words = SHOP_WORDS[field];
  if (!value.trim()) return words.off;
  const count = words.kind === "count" ? countOf(value) : null;
  const limit = words.kind === "count" ? (count === null ? null : refunds(count)) : amountIn(value, currency);
  if (limit) return words.set(limit);
  return words.kind === "count"
    ? "Enter a whole number of refunds, such as 20, or leave it empty for no limit."
    : "Enter an amount, or leave it empty for no limit.";
}

/**
 * What a person's own limit does: their refunds over it wait, in place of the shop's. `shopValue`
 * is the shop's limit as typed above, which an empty field of theirs follows.
 */
export function personLimitMeaning(kind: "perRefund" | "daily", name: string, value: string, shopValue: string, currency: string | null): string {
  const own = amountIn(value, currency);
  const shops = amountIn(shopValue, currency);
  if (!value.trim() || !own) return shops ? `Empty: the shop's limit, ${shops}.` : "Empty: the shop's limit, which is off.";
  const instead = shops ? `instead of the shop's ${shops}` : "though the shop's limit is off";
  return kind === "perRefund"
    ? `${name}'s refunds over ${own} wait for approval, ${instead}.`
    : `Once ${name}'s refunds in any 24 hours would pass ${own}, the next waits for approval, ${instead}.`;
}
