import { z } from "zod";
import { fieldErrors as fieldErrorsOf } from "../forms/field-errors";
import { currencyExponent, formatMoney, fromMinorUnits, toMinorUnits } from "../money/currency";
import { RISK_CODES } from "./risk";

/**
 * The refund form's input, parsed the same way in the browser (before the confirmation) and on
 * the server (before anything reaches Shopify). Every message is in words, for a person: no code.
 * Pure: no server imports, so the route's component can use it.
 */

/** A further refund on an order refunded in this window needs an explicit "yes, another refund". */
export const RECENT_REFUND_WINDOW_MS = 10 * 60_000;

export type AmountParse = { ok: true; amount: string; minor: bigint } | { ok: false; message: string };

const example = (exponent: number) => (exponent === 0 ? "2500" : `25.${"0".repeat(exponent)}`);
const decimalsMessage = (currency: string, exponent: number) =>
  exponent === 0 ? `${currency} amounts have no decimals.` : `${currency} amounts have at most ${exponent} decimal${exponent === 1 ? "" : "s"}.`;

/**
 * An amount a person typed, in `currency` (its exponent: USD 2, JPY 0, KWD 3). A comma is taken as
 * the decimal separator when that is unambiguous: one comma, no dot, and no more digits after it
 * than the currency has decimals ("10,50" USD is 10.50; "1,200" USD could be 1200 or 1.20, so it
 * is explained instead). Thousands separators are read when the other separator marks the decimals
 * ("1.000,50" and "1,000.50" are 1000.50). Without a currency (before the order is known) only what does not depend
 * on it is checked, and the amount is returned as typed, normalised to a dot.
 */
export function parseAmount(raw: string, currency?: string): AmountParse {
  const fail = (message: string): AmountParse => ({ ok: false, message });
  const exponent = currency ? currencyExponent(currency) : undefined;
  const text = raw.trim();
  if (!text) return fail("Enter the amount to refund.");
  if (/^[-−‒–]/.test(text)) return fail("Enter the amount without a minus sign: it is the money the customer gets back.");
  // Thousands grouped with a dot and decimals after a comma ("1.000,50"), or grouped with a comma
  // and decimals after a dot ("1,000.50"): both say one amount, whichever the person's locale.
  const grouped = /^\d{1,3}(\.\d{3})+,\d+$/.test(text) ? text.replace(/\./g, "") : /^\d{1,3}(,\d{3})+\.\d+$/.test(text) ? text.replace(/,/g, "") : text;
  let normalized = grouped;
  if (grouped.includes(",")) {
    const match = /^(\d+),(\d+)$/.exec(grouped);
    if (!match || match[2].length > (exponent ?? 3)) {
      return fail(
        `Write the amount with a dot for decimals and without thousands separators, such as ${exponent === 0 ? "1200" : `1234.${"5".padEnd(exponent ?? 2, "0")}`}.`,
      );
    }
    normalized = `${match[1]}.${match[2]}`;
  }
  if (/^\.\d+$/.test(normalized)) normalized = `0${normalized}`;
  if (!/^\d+(\.\d+)?$/.test(normalized)) return fail(`Enter the amount as a number, such as ${example(exponent ?? 2)}.`);
  const [whole, fraction = ""] = normalized.split(".");
  if (whole.replace(/^0+/, "").length > 15) return fail("That amount is far larger than any order: check the number.");
  if (/^0*$/.test(whole) && /^0*$/.test(fraction)) return fail("Enter an amount greater than zero.");
  if (exponent === undefined || currency === undefined) return { ok: true, amount: normalized, minor: 0n };
  if (fraction.length > exponent) return fail(decimalsMessage(currency, exponent));
  const minor = toMinorUnits(normalized, currency);
  if (minor === undefined) return fail(`Enter the amount as a number, such as ${example(exponent)}.`);
  return { ok: true, amount: fromMinorUnits(minor, currency), minor };
}

/** The amount field as a zod schema for one currency: its output is the amount in the currency's digits ("10,5" → "10.50"). */
export const refundAmountSchema = (currency: string) =>
  z.string({ required_error: "Enter the amount to refund.", invalid_type_error: "Enter the amount to refund." }).transform((raw, ctx) => {
    const parsed = parseAmount(raw, currency);
    if (!parsed.ok) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.message });
      return z.NEVER;
    }
    return parsed.amount;
  });

const text = (missing: string) => z.string({ required_error: missing, invalid_type_error: missing }).trim().min(1, missing);
const STALE = "The form is missing which refund attempt this is about. Reload the page and try again.";
const FORM_EXPIRED = "This form is out of date. Reload the page and try again.";
const RISK_EXPIRED = "This form's confirmation is out of date. Reload the page and try again.";

const issueSchema = z.object({
  intent: z.literal("issue"),
  amount: z
    .string({ invalid_type_error: "Enter the amount to refund." })
    .default("")
    .superRefine((raw, ctx) => {
      const parsed = parseAmount(raw);
      if (!parsed.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.message });
    }),
  note: z.string({ invalid_type_error: "The note must be text." }).max(2000, "Keep the note under 2,000 characters.").default(""),
  notify: z
    .string()
    .optional()
    .transform((value) => value === "on"),
  confirmAnother: z
    .string()
    .optional()
    .transform((value) => value === "yes"),
  /** "Yes, refund anyway": the risks the person saw and confirmed, by code ("OPEN_CHARGEBACK,STORE_CREDIT_REFUNDED"). */
  confirmRisk: z
    .string({ invalid_type_error: RISK_EXPIRED })
    .optional()
    .transform((value) => (value ? value.split(",") : []))
    .pipe(z.array(z.enum(RISK_CODES, { errorMap: () => ({ message: RISK_EXPIRED }) }))),
  formToken: z.string({ required_error: FORM_EXPIRED, invalid_type_error: FORM_EXPIRED }).regex(/^[0-9a-f-]{36}$/, FORM_EXPIRED),
});

const recordSchema = <T extends "resend" | "settle">(intent: T) => z.object({ intent: z.literal(intent), recordId: text(STALE), revision: text(STALE) });

/** What the refund form can post: issue a refund, ask Shopify again about an attempt, or settle one. */
export const refundActionSchema = z.discriminatedUnion("intent", [issueSchema, recordSchema("resend"), recordSchema("settle")], {
  errorMap: (issue, ctx) =>
    issue.code === z.ZodIssueCode.invalid_union_discriminator
      ? { message: "The form asked for something this page does not do. Reload the page and try again." }
      : { message: ctx.defaultError },
});

export type RefundAction = z.output<typeof refundActionSchema>;
export type FieldErrors = Partial<Record<"amount" | "note" | "intent" | "recordId" | "revision" | "formToken" | "confirmRisk", string>>;
export type ParsedAction = { ok: true; data: RefundAction } | { ok: false; message: string; fieldErrors: FieldErrors };

/** The posted form, parsed: malformed input is words for the field it concerns, never an exception. */
export function parseRefundAction(form: FormData | Record<string, unknown>): ParsedAction {
  const entries = form instanceof FormData ? Object.fromEntries([...form.keys()].map((key) => [key, form.get(key)])) : form;
  const parsed = refundActionSchema.safeParse(entries);
  if (parsed.success) return { ok: true, data: parsed.data };
  const fieldErrors: FieldErrors = fieldErrorsOf(parsed.error, "intent");
  return { ok: false, message: Object.values(fieldErrors)[0] ?? "The form could not be read. Reload the page and try again.", fieldErrors };
}

/** Where the page's back arrow goes: `back` when it is a path of this app (starting with /app), else the dashboard. */
export function safeBackPath(back: string | null | undefined): string {
  if (!back || !back.startsWith("/") || back.startsWith("//") || /[\\\s]/.test(back)) return "/app";
  let url: URL;
  try {
    url = new URL(back, "https://app.invalid");
  } catch {
    return "/app";
  }
  if (url.origin !== "https://app.invalid" || !/^\/app(\/|$)/.test(url.pathname)) return "/app";
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The link to the refund form from another screen of the app: the order's numeric id, and where to come back to. */
export function refundFormPath(orderId: string, back?: string): string {
  const numeric = orderId.replace(/^gid:\/\/shopify\/Order\//, "");
  const target = safeBackPath(back);
  return `/app/orders/${numeric}/refund${target === "/app" ? "" : `?back=${encodeURIComponent(target)}`}`;
}

export interface RefundSource {
  gateway: string;
  /** What Shopify can still refund on this payment, in the order's presentment currency. */
  refundable: string;
}

/** The split a refund of `minor` takes over the order's payments (newest first, as the server allocates). */
export function splitOverSources(sources: RefundSource[], minor: bigint, currency: string): { gateway: string; minor: bigint }[] {
  const parts: { gateway: string; minor: bigint }[] = [];
  let left = minor;
  for (const source of sources) {
    if (left <= 0n) break;
    const cap = toMinorUnits(source.refundable, currency) ?? 0n;
    const take = cap < left ? cap : left;
    if (take <= 0n) continue;
    parts.push({ gateway: source.gateway, minor: take });
    left -= take;
  }
  return parts;
}

const GATEWAYS: Record<string, string> = {
  shopify_payments: "Shopify Payments",
  gift_card: "gift card",
  manual: "manual payment",
  bogus: "Bogus Gateway (test)",
  paypal: "PayPal",
  cash: "cash",
};

/** A gateway's handle for people: shopify_payments → "Shopify Payments". */
export function gatewayLabel(gateway: string): string {
  return GATEWAYS[gateway] ?? gateway.replace(/_/g, " ");
}

/** "You can refund at most $51.35 on #1214." */
export function overRefundMessage(capacityMinor: bigint, currency: string, orderName: string): string {
  return capacityMinor > 0n
    ? `You can refund at most ${formatMoney(capacityMinor, currency)} on ${orderName}.`
    : `Nothing is left to refund on ${orderName}: Shopify shows it fully refunded.`;
}

/** "4 minutes ago", for the recent-refund warning. */
export function minutesAgo(at: Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - at.getTime()) / 60_000);
  return minutes < 1 ? "less than a minute ago" : minutes === 1 ? "1 minute ago" : `${minutes} minutes ago`;
}
