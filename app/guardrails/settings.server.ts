import type { PrismaClient } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";
import { fromMinorUnits } from "../lib/money/currency";
import { staffDirectory } from "../staff/identity.server";
import { parseLimitsForm, type LimitsFieldErrors } from "./limits-form";
import { personOf, type ShopLimits } from "./limits";
import { maySetLimits, peopleJson, readLimits, type Actor } from "./limits.server";

export type LimitsSaveCode = "NOT_ALLOWED" | "INVALID_LIMITS" | "CONFLICT" | "NO_CURRENCY";
export type LimitsSaveResult =
  { ok: true; message: string; revision: number } | { ok: false; code: LimitsSaveCode; message: string; fieldErrors?: LimitsFieldErrors };

const amount = (minor: bigint | null, currency: string) => (minor === null ? "" : fromMinorUnits(minor, currency));

/** The settings page: the limits as decimal strings in the shop's currency, the people who opened the app, and what the viewer may change. */
export async function limitsPage(db: PrismaClient, shop: string, viewer: Actor, currency: string | null) {
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

/** Whether a non-owner's form changes who may set limits: only the account owner names them. */
function namesLimitSetters(current: ShopLimits, next: { people: { userId: string; setsLimits: boolean }[] }): boolean {
  const before = (userId: string) => Boolean(personOf(current, userId)?.setsLimits);
  const ids = new Set([...current.people.map((p) => p.userId), ...next.people.map((p) => p.userId)]);
  return [...ids].some((userId) => before(userId) !== Boolean(next.people.find((p) => p.userId === userId)?.setsLimits));
}

/**
 * Saves the limits: only the account owner or someone they named, in one statement guarded by the
 * revision the form was read at (two people saving at once: the second is told, nothing is mixed).
 */
export async function saveLimits(db: PrismaClient, shop: string, editor: Actor, form: FormData, currency: string | null, now: Date): Promise<LimitsSaveResult> {
  const current = await readLimits(db, shop, currency ?? "");
  if (!maySetLimits(current, editor)) {
    return { ok: false, code: "NOT_ALLOWED", message: "Only the account owner, or staff the owner names, can change the refund limits." };
  }
  if (!currency)
    return { ok: false, code: "NO_CURRENCY", message: "Shopify did not say the shop's currency yet, so the limits cannot be saved. Try again in a moment." };
  const parsed = parseLimitsForm(form, currency);
  if (!parsed.ok) return { ok: false, code: "INVALID_LIMITS", message: parsed.message, fieldErrors: parsed.fieldErrors };
  const input = parsed.data;
  if (!editor.accountOwner && namesLimitSetters(current, input)) {
    return { ok: false, code: "NOT_ALLOWED", message: "Only the account owner names who may change the refund limits." };
  }
  const people = input.people.filter((p) => p.perRefundMinor !== null || p.dailyMinor !== null || p.approver || p.setsLimits);
  const data = {
    currency,
    perRefundMinor: input.perRefundMinor,
    dailyPerStaffMinor: input.dailyPerStaffMinor,
    shopHourlyCount: input.shopHourlyCount,
    shopHourlyMinor: input.shopHourlyMinor,
    shopDailyCount: input.shopDailyCount,
    shopDailyMinor: input.shopDailyMinor,
    people: peopleJson(people),
    updatedBy: editor.userId,
    updatedAt: now,
  };
  const saved =
    input.revision === 0
      ? await createOnce(() => db.refundLimits.create({ data: { shop, ...data, revision: 1 } }))
      : (await db.refundLimits.updateMany({ where: { shop, revision: input.revision }, data: { ...data, revision: { increment: 1 } } })).count === 1;
  if (!saved)
    return { ok: false, code: "CONFLICT", message: "Someone else saved the limits since you opened this page. Reload to see theirs, then change them again." };
  return { ok: true, message: "Limits saved. They apply to the next refund asked for in the app.", revision: input.revision + 1 };
}
