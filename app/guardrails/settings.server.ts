import type { PrismaClient } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";
import { parseLimitsForm, type LimitsFieldErrors } from "./limits-form";
import { personOf, type ShopLimits } from "./limits";
import { maySetLimits, peopleJson, readLimits, type Actor } from "./limits.server";

export type LimitsSaveCode = "NOT_ALLOWED" | "INVALID_LIMITS" | "CONFLICT" | "NO_CURRENCY";
export type LimitsSaveResult =
  { ok: true; message: string; revision: number } | { ok: false; code: LimitsSaveCode; message: string; fieldErrors?: LimitsFieldErrors };

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
export async function saveLimits(
  db: PrismaClient,
  save: { shop: string; editor: Actor; form: FormData; currency: string | null },
  now: Date,
): Promise<LimitsSaveResult> {
  const { shop, editor, form, currency } = save;
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
