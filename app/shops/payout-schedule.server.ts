import { z } from "zod";
import { PAYOUT_INTERVALS, WEEKDAYS, type PayoutSchedule } from "./payout-schedule";

/**
 * ShopifyPaymentsAccount.payoutSchedule as the 2026-10 schema types it (interval non-null;
 * weeklyAnchor a DayOfTheWeek, "any weekday from Monday to Friday"; monthlyAnchor "any day of the
 * month from the 1st to the 31st"; both nullable), with the account's `country`: Shopify's answer
 * and the stored copy are parsed with it. A weekly schedule without its day, or a monthly one
 * without its date, says nothing the rule can use: not a schedule (the 7 days' fallback applies).
 */
export const payoutSchedule: z.ZodType<PayoutSchedule, z.ZodTypeDef, unknown> = z
  .object({
    interval: z.enum(PAYOUT_INTERVALS),
    weeklyAnchor: z.enum(WEEKDAYS).nullable(),
    monthlyAnchor: z.number().int().min(1).max(31).nullable(),
    country: z.string().nullable(),
  })
  .refine((s) => (s.interval === "WEEKLY" ? s.weeklyAnchor !== null : s.interval === "MONTHLY" ? s.monthlyAnchor !== null : true), {
    message: "a weekly schedule needs its weekday, a monthly one its day of the month",
  });
