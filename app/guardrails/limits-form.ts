import { currencyExponent, formatMoney } from "../lib/money/currency";
import { parseAmount } from "../lib/money/typed-amount";
import type { PersonLimits, ShopLimits } from "./limits";

/**
 * The limits settings form, parsed the same way in the browser and on the server. Pure. Every
 * field may be left empty: that limit is off. Amounts are in the shop's currency.
 */

/** The largest amount limit: a billion in the currency's units is no limit at all, and a typo's sign. */
export const MAX_LIMIT_UNITS = 1_000_000_000n;
/** The largest count limit. */
export const MAX_COUNT_LIMIT = 100_000;
/** The most people one form may carry (a shop's staff who opened the app). */
export const MAX_PEOPLE = 500;

export const SHOP_AMOUNT_FIELDS = ["perRefund", "dailyPerStaff", "shopHourlyAmount", "shopDailyAmount"] as const;
export const SHOP_COUNT_FIELDS = ["shopHourlyCount", "shopDailyCount"] as const;
type ShopField = (typeof SHOP_AMOUNT_FIELDS)[number] | (typeof SHOP_COUNT_FIELDS)[number];

export type LimitsFieldErrors = Partial<Record<ShopField | "form" | `perRefund.${string}` | `daily.${string}`, string>>;
export type LimitsInput = Omit<ShopLimits, "revision" | "currency"> & { revision: number };
export type LimitsParse = { ok: true; data: LimitsInput } | { ok: false; message: string; fieldErrors: LimitsFieldErrors };

const FORM_EXPIRED = "This form is out of date. Reload the page and try again.";

function amountLimit(raw: string, currency: string): { ok: true; minor: bigint | null } | { ok: false; message: string } {
  const text = raw.trim();
  if (!text) return { ok: true, minor: null };
  if (/^[-−‒–]/.test(text)) return { ok: false, message: "A limit cannot be below zero. Leave it empty for no limit." };
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) return { ok: false, message: parsed.message.replace("Enter the amount to refund.", "Enter an amount, or leave it empty for no limit.") };
  const max = MAX_LIMIT_UNITS * 10n ** BigInt(currencyExponent(currency));
  if (parsed.minor > max) return { ok: false, message: `At most ${formatMoney(max, currency)}. Leave it empty for no limit.` };
  return { ok: true, minor: parsed.minor };
}

function countLimit(raw: string): { ok: true; count: number | null } | { ok: false; message: string } {
  const text = raw.trim();
  if (!text) return { ok: true, count: null };
  if (!/^\d{1,7}$/.test(text)) return { ok: false, message: "Enter a whole number of refunds, such as 20, or leave it empty for no limit." };
  const count = Number(text);
  if (count < 1) return { ok: false, message: "At least 1. Leave it empty for no limit." };
  if (count > MAX_COUNT_LIMIT) return { ok: false, message: `At most ${MAX_COUNT_LIMIT.toLocaleString("en-US")}. Leave it empty for no limit.` };
  return { ok: true, count };
}

const valueOf = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The posted form in the shop's currency: malformed input is words for the field it concerns, never an exception. */
export function parseLimitsForm(form: FormData, currency: string): LimitsParse {
  const errors: LimitsFieldErrors = {};
  const revision = valueOf(form, "revision");
  if (!/^\d{1,9}$/.test(revision)) errors.form = FORM_EXPIRED;
  const amounts = {} as Record<(typeof SHOP_AMOUNT_FIELDS)[number], bigint | null>;
  for (const field of SHOP_AMOUNT_FIELDS) {
    const parsed = amountLimit(valueOf(form, field), currency);
    if (parsed.ok) amounts[field] = parsed.minor;
    else errors[field] = parsed.message;
  }
  const counts = {} as Record<(typeof SHOP_COUNT_FIELDS)[number], number | null>;
  for (const field of SHOP_COUNT_FIELDS) {
    const parsed = countLimit(valueOf(form, field));
    if (parsed.ok) counts[field] = parsed.count;
    else errors[field] = parsed.message;
  }
  const ids = valueOf(form, "people").split(",").filter(Boolean);
  if (ids.length > MAX_PEOPLE || ids.some((id) => !/^\d{1,20}$/.test(id)) || new Set(ids).size !== ids.length) errors.form = FORM_EXPIRED;
  const people: PersonLimits[] = [];
  for (const userId of errors.form ? [] : ids) {
    const perRefund = amountLimit(valueOf(form, `perRefund.${userId}`), currency);
    const daily = amountLimit(valueOf(form, `daily.${userId}`), currency);
    if (!perRefund.ok) errors[`perRefund.${userId}`] = perRefund.message;
    if (!daily.ok) errors[`daily.${userId}`] = daily.message;
    if (perRefund.ok && daily.ok) {
      people.push({
        userId,
        perRefundMinor: perRefund.minor,
        dailyMinor: daily.minor,
        approver: form.get(`approver.${userId}`) === "on",
        setsLimits: form.get(`setsLimits.${userId}`) === "on",
      });
    }
  }
  const first = Object.values(errors)[0];
  if (first) return { ok: false, message: first, fieldErrors: errors };
  return {
    ok: true,
    data: {
      perRefundMinor: amounts.perRefund,
      dailyPerStaffMinor: amounts.dailyPerStaff,
      shopHourlyMinor: amounts.shopHourlyAmount,
      shopDailyMinor: amounts.shopDailyAmount,
      shopHourlyCount: counts.shopHourlyCount,
      shopDailyCount: counts.shopDailyCount,
      people,
      revision: Number(revision),
    },
  };
}
