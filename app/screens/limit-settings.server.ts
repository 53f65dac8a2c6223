import type { PrismaClient } from "@prisma/client";
import { personOf } from "../guardrails/limits";
import { maySetLimits, readLimits, type Actor } from "../guardrails/limits.server";
import { saveLimits, type LimitsSaveResult } from "../guardrails/settings.server";
import { FORM_UNREADABLE } from "../lib/forms/read-form";
import { fromMinorUnits } from "../lib/money/currency";
import { shopCurrency } from "../shops/profile.server";
import { staffDirectory } from "../staff/identity.server";
import type { ScreenContext } from "./context.server";

const amount = (minor: bigint | null, currency: string) => (minor === null ? "" : fromMinorUnits(minor, currency));

/** The settings page: the limits as decimal strings in the shop's currency, the people who opened the app, and what the viewer may change. */
async function limitsPage(db: PrismaClient, shop: string, viewer: Actor, currency: string | null) {
  const limits = await readLimits(db, shop, currency ?? "");
  const money = currency ?? limits.currency;
  const staff = await staffDirectory(db, shop);
  return {
    currency: money || null,
    revision: limits.revision,
    limits: {
      perRefund: amount(limits.perRefundMinor, money),
      dailyPerStaff: amount(limits.dailyPerStaffMinor, money),
      shopHourlyAmount: amount(limits.shopHourlyMinor, money),
      shopDailyAmount: amount(limits.shopDailyMinor, money),
      shopHourlyCount: limits.shopHourlyCount?.toString() ?? "",
      shopDailyCount: limits.shopDailyCount?.toString() ?? "",
    },
    // Saved in another currency than the shop's now: the page says so, and every refund waits until they are saved again.
    savedIn: limits.revision > 0 && currency && limits.currency !== currency ? limits.currency : null,
    people: staff.map((member) => {
      const person = personOf(limits, member.userId);
      return {
        userId: member.userId,
        name: member.name,
        accountOwner: member.accountOwner,
        perRefund: amount(person?.perRefundMinor ?? null, money),
        daily: amount(person?.dailyMinor ?? null, money),
        approver: member.accountOwner || Boolean(person?.approver),
        setsLimits: member.accountOwner || Boolean(person?.setsLimits),
      };
    }),
    viewer: { userId: viewer.userId, accountOwner: viewer.accountOwner, maySetLimits: maySetLimits(limits, viewer) },
  };
}

/** The limits page, for the staff member looking at it, in the shop's currency (asked of Shopify once, then stored). */
export async function load(context: ScreenContext) {
  const currency = await shopCurrency(context.db, context.shop, { gateway: context.gateway, now: context.now() });
  return limitsPage(context.db, context.shop, context.staff, currency);
}

const STATUS = { NOT_ALLOWED: 403, INVALID_LIMITS: 422, CONFLICT: 409, NO_CURRENCY: 502 } as const;

/** Saves the limits the form holds, as the staff member asking. */
export async function act(context: ScreenContext): Promise<LimitsSaveResult & { status: number }> {
  const form = await context.form();
  if (!form) return { ok: false, code: "INVALID_LIMITS", message: FORM_UNREADABLE, status: 422 };
  const { db, shop, staff: editor } = context;
  const currency = await shopCurrency(db, shop, { gateway: context.gateway, now: context.now() });
  const result = await saveLimits(db, { shop, editor, form, currency }, context.now());
  return { ...result, status: result.ok ? 200 : STATUS[result.code] };
}
