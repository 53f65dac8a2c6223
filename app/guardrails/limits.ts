import { z } from "zod";
import { formatMoney } from "../lib/money/currency";

/**
 * The shop's refund limits and what a refund's amount comes to against them (decision 030). Pure:
 * no database, no clock; the caller counts what already left and says when.
 *
 * Every amount is in the shop's currency's minor units. A limit is a ceiling the refund may reach
 * but not pass: at $100.00 per refund, $100.00 goes through and $100.01 waits for approval.
 */

export interface PersonLimits {
  userId: string;
  /** Their own ceiling per refund; null: the shop's. */
  perRefundMinor: bigint | null;
  /** Their own ceiling for their refunds in any 24 hours; null: the shop's. */
  dailyMinor: bigint | null;
  /** Approves refunds over a limit (the account owner always may). */
  approver: boolean;
  /** Changes the limits (named by the account owner, who always may). */
  setsLimits: boolean;
}

export interface ShopLimits {
  currency: string;
  perRefundMinor: bigint | null;
  dailyPerStaffMinor: bigint | null;
  shopHourlyCount: number | null;
  shopHourlyMinor: bigint | null;
  shopDailyCount: number | null;
  shopDailyMinor: bigint | null;
  people: PersonLimits[];
  revision: number;
}

/** A shop that never set a limit: nothing waits. */
export const NO_LIMITS = (currency: string): ShopLimits => ({
  currency,
  perRefundMinor: null,
  dailyPerStaffMinor: null,
  shopHourlyCount: null,
  shopHourlyMinor: null,
  shopDailyCount: null,
  shopDailyMinor: null,
  people: [],
  revision: 0,
});

/** What already left that the limits count: a staff member's refunds in the last 24 hours, the shop's in the last hour and 24 hours. */
export interface RecentRefunds {
  staffDayMinor: bigint;
  shopHour: { count: number; minor: bigint };
  shopDay: { count: number; minor: bigint };
}

const minorText = z.string().regex(/^\d{1,18}$/);
/** A stored breach: which limit, its ceiling, and what the refund came to against it. Amounts as decimal strings of minor units. */
export const storedBreach = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("per_refund"), currency: z.string(), limitMinor: minorText, amountMinor: minorText, own: z.boolean() }),
  z.object({ kind: z.literal("staff_daily"), currency: z.string(), limitMinor: minorText, amountMinor: minorText, totalMinor: minorText, own: z.boolean() }),
  z.object({
    kind: z.enum(["shop_hourly_amount", "shop_daily_amount"]),
    currency: z.string(),
    limitMinor: minorText,
    amountMinor: minorText,
    totalMinor: minorText,
  }),
  z.object({ kind: z.enum(["shop_hourly_count", "shop_daily_count"]), limit: z.number().int(), count: z.number().int() }),
  /** The shop now sells in another currency than the one its limits were saved in: every refund waits until they are saved again. */
  z.object({ kind: z.literal("currency_changed"), limitsCurrency: z.string(), shopCurrency: z.string() }),
  /** The order is in another currency and Shopify gave no rate to the shop's: the refund cannot be weighed, so it waits. */
  z.object({ kind: z.literal("no_rate"), shopCurrency: z.string() }),
]);
export type Breach = z.infer<typeof storedBreach>;
export const storedBreaches = z.array(storedBreach);

export const personOf = (limits: ShopLimits, userId: string): PersonLimits | undefined => limits.people.find((p) => p.userId === userId);

export const hasAnyLimit = (limits: ShopLimits): boolean =>
  [limits.perRefundMinor, limits.dailyPerStaffMinor, limits.shopHourlyCount, limits.shopHourlyMinor, limits.shopDailyCount, limits.shopDailyMinor].some(
    (limit) => limit !== null,
  ) || limits.people.some((p) => p.perRefundMinor !== null || p.dailyMinor !== null);

/** Whether a refund's check needs what already left (a daily or shop-wide limit), not only its own amount. */
export function countsWhatLeft(limits: ShopLimits, userId: string): boolean {
  const person = personOf(limits, userId);
  return [person?.dailyMinor ?? limits.dailyPerStaffMinor, limits.shopHourlyCount, limits.shopHourlyMinor, limits.shopDailyCount, limits.shopDailyMinor].some(
    (limit) => limit !== null,
  );
}

const text = (minor: bigint) => minor.toString();

/**
 * The limits a refund of `amountMinor` by `userId` goes over, in the shop's currency `currency`;
 * none when it may go to Shopify. `recent` is what already left, without this refund.
 */
export function limitBreaches(limits: ShopLimits, userId: string, currency: string, amountMinor: bigint, recent: RecentRefunds): Breach[] {
  if (!hasAnyLimit(limits)) return [];
  if (limits.currency !== currency) return [{ kind: "currency_changed", limitsCurrency: limits.currency, shopCurrency: currency }];
  const person = personOf(limits, userId);
  const breaches: Breach[] = [];
  const perRefund = person?.perRefundMinor ?? limits.perRefundMinor;
  if (perRefund !== null && amountMinor > perRefund) {
    breaches.push({ kind: "per_refund", currency, limitMinor: text(perRefund), amountMinor: text(amountMinor), own: person?.perRefundMinor != null });
  }
  const daily = person?.dailyMinor ?? limits.dailyPerStaffMinor;
  const staffTotal = recent.staffDayMinor + amountMinor;
  if (daily !== null && staffTotal > daily) {
    breaches.push({
      kind: "staff_daily",
      currency,
      limitMinor: text(daily),
      amountMinor: text(amountMinor),
      totalMinor: text(staffTotal),
      own: person?.dailyMinor != null,
    });
  }
  const windows = [
    { window: recent.shopHour, count: limits.shopHourlyCount, minor: limits.shopHourlyMinor, kinds: ["shop_hourly_count", "shop_hourly_amount"] as const },
    { window: recent.shopDay, count: limits.shopDailyCount, minor: limits.shopDailyMinor, kinds: ["shop_daily_count", "shop_daily_amount"] as const },
  ];
  for (const { window, count, minor, kinds } of windows) {
    if (count !== null && window.count + 1 > count) breaches.push({ kind: kinds[0], limit: count, count: window.count + 1 });
    const total = window.minor + amountMinor;
    if (minor !== null && total > minor) {
      breaches.push({ kind: kinds[1], currency, limitMinor: text(minor), amountMinor: text(amountMinor), totalMinor: text(total) });
    }
  }
  return breaches;
}

const money = (minor: string, currency: string) => formatMoney(BigInt(minor), currency);
const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
};

/**
 * A breach in words. `whose` is how the sentence names the person's own limits: "your" for the
 * person who asked, their name ("Sam Lee's") for anyone else; the shop's limits are "the shop's".
 */
export function breachWords(breach: Breach, whose = "your"): string {
  switch (breach.kind) {
    case "per_refund":
      return `${money(breach.amountMinor, breach.currency)} is over ${breach.own ? `${whose} limit` : "the shop's limit"} of ${money(breach.limitMinor, breach.currency)} per refund`;
    case "staff_daily":
      return `${money(breach.amountMinor, breach.currency)} would bring ${whose} refunds in 24 hours to ${money(breach.totalMinor, breach.currency)}, over ${breach.own ? `${whose} limit` : "the shop's limit"} of ${money(breach.limitMinor, breach.currency)} a day per staff member`;
    case "shop_hourly_amount":
    case "shop_daily_amount":
      return `${money(breach.amountMinor, breach.currency)} would bring the shop's refunds in ${breach.kind === "shop_hourly_amount" ? "an hour" : "24 hours"} to ${money(breach.totalMinor, breach.currency)}, over the shop's limit of ${money(breach.limitMinor, breach.currency)} ${breach.kind === "shop_hourly_amount" ? "an hour" : "a day"}`;
    case "shop_hourly_count":
    case "shop_daily_count":
      return `this would be the shop's ${ordinal(breach.count)} refund in ${breach.kind === "shop_hourly_count" ? "an hour" : "24 hours"}, over the shop's limit of ${breach.limit} ${breach.kind === "shop_hourly_count" ? "an hour" : "a day"}`;
    case "currency_changed":
      return `the shop's limits are in ${breach.limitsCurrency} but it now sells in ${breach.shopCurrency}: every refund waits for approval until the limits are saved again`;
    case "no_rate":
      return `Shopify did not say what this refund comes to in ${breach.shopCurrency}, so it cannot be held against the shop's limits`;
  }
}

/** Every breach in one sentence, first letter up ("$180.00 is over your limit of $100.00 per refund."). */
export function breachesSentence(breaches: Breach[], whose = "your"): string {
  const words = breaches.map((b) => breachWords(b, whose));
  const joined = words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join("; ")}; and ${words[words.length - 1]}`;
  return joined ? `${joined[0].toUpperCase()}${joined.slice(1)}.` : "";
}
