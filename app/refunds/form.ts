import { z } from "zod";
import { fieldErrors as fieldErrorsOf } from "../lib/forms/field-errors";
import { FORM_EXPIRED, FORM_UNREADABLE, readForm } from "../lib/forms/read-form";
import { formatMoney, toMinorUnits } from "../lib/money/currency";
import { parseAmount } from "../lib/money/typed-amount";
import { numberOfGid } from "../shopify/ids";
import { RISK_CODES } from "./risk";

/**
 * The refund form's input, parsed the same way in the browser (before the confirmation) and on
 * the server (before anything reaches Shopify). Every message is in words, for a person: no code.
 * Pure: no server imports, so the route's component can use it.
 */

/** A further refund on an order refunded in this window needs an explicit "yes, another refund". */
export const RECENT_REFUND_WINDOW_MS = 10 * 60_000;

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
export type FieldErrors = Partial<
  Record<"amount" | "note" | "intent" | "recordId" | "revision" | "formToken" | "confirmRisk" | "confirmAnother" | "reason" | "limitsRevision", string>
>;
export type ParsedAction = { ok: true; data: RefundAction } | { ok: false; message: string; fieldErrors: FieldErrors };

/** The posted form (or the page's own fields, in the browser), parsed: malformed input is words for the field it concerns, never an exception. */
export function parseRefundAction(form: FormData | Record<string, unknown> | null): ParsedAction {
  if (form === null || form instanceof FormData) return readForm(form, refundActionSchema, "intent");
  const parsed = refundActionSchema.safeParse(form);
  if (parsed.success) return { ok: true, data: parsed.data };
  const fieldErrors: FieldErrors = fieldErrorsOf(parsed.error, "intent");
  return { ok: false, message: Object.values(fieldErrors)[0] ?? FORM_UNREADABLE, fieldErrors };
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
  const numeric = numberOfGid(orderId);
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
