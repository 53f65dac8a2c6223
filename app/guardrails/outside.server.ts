import type { PrismaClient } from "@prisma/client";
import { wholeSecond } from "../contracts/values";
import { createOnce } from "../lib/db/create-once";
import { toMinorUnits } from "../lib/money/currency";
import { putOnReviewQueue } from "../verification/review-queue.server";
import { leaseMs } from "../work/claims.server";
import type { ShopWork } from "../work/runner.server";
import { hasAnyLimit, limitBreaches, type Breach } from "./limits";
import { limitsOfRow, recentRefunds, staffOfRefunds } from "./limits.server";

/** Shopify writes a refund's time to the second: one made in the second the limits were first saved counts as after. */
const wholeSecondOf = (at: Date) => new Date(wholeSecond(at.getTime()) * 1000);

/** Refunds judged a shop and pass: the rest wait for the next pass. */
const BATCH = 200;

/** Breaches that say something of a refund nothing could stop: a daily limit of someone unknown, or a currency question, say nothing. */
const aboutThisRefund = (breach: Breach, staffKnown: boolean) =>
  breach.kind !== "currency_changed" && breach.kind !== "no_rate" && (staffKnown || breach.kind !== "staff_daily");

/**
 * Refunds made outside the app (Shopify admin, POS, other apps) that went over one of the shop's
 * limits, once verified: nothing could stop them, so each is shown to the owner (decision 030): a
 * LimitBreach (the reason on its verdict, and the alert's source) and a review item. Judged with
 * the limits as they are when it is verified, against what left in the day before it; a refund
 * made before the shop first saved limits is not judged (it was made under none).
 */
export async function judgeOutsideRefunds(db: PrismaClient, shop: string, now: Date): Promise<number> {
  const row = await db.refundLimits.findUnique({ where: { shop } });
  if (!row) return 0;
  const limits = limitsOfRow(row);
  const state = await db.shopState.findUnique({ where: { shop }, select: { limitsCheckedUntil: true } });
  // From a lease before the cursor: a batch of verdicts stamped earlier may commit after a later one moved it.
  const since = new Date(Math.max((state?.limitsCheckedUntil?.getTime() ?? row.updatedAt.getTime()) - leaseMs(), 0));
  const verified = await db.operation.findMany({
    where: {
      shop,
      status: "VERIFIED",
      origin: { in: ["webhook", "reconciliation"] },
      decidedAt: { gte: since },
      startedAt: { gte: wholeSecondOf(row.createdAt) },
      limitBreach: { is: null },
    },
    orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
    take: BATCH,
    select: { id: true, refundGid: true, decidedAt: true, startedAt: true, amountMinor: true, currency: true, shopAmount: true, shopCurrency: true },
  });
  const madeBy = await staffOfRefunds(
    db,
    shop,
    verified.map((op) => op.refundGid),
  );
  let shown = 0;
  for (const op of hasAnyLimit(limits) ? verified : []) {
    const staff = madeBy.get(op.refundGid) ?? null;
    const shopMinor =
      op.shopAmount && op.shopCurrency === limits.currency
        ? toMinorUnits(op.shopAmount, op.shopCurrency)
        : op.currency === limits.currency
          ? (op.amountMinor ?? undefined)
          : undefined;
    if (shopMinor === undefined) continue;
    const recent = await recentRefunds(db, shop, staff ?? "", limits.currency, op.startedAt);
    const breaches = limitBreaches(limits, staff ?? "", limits.currency, shopMinor, recent).filter((b) => aboutThisRefund(b, staff !== null));
    if (!breaches.length) continue;
    const created = await createOnce(() =>
      db.limitBreach.create({ data: { shop, operationId: op.id, staffUserId: staff, limits: JSON.stringify(breaches), createdAt: now } }),
    );
    if (created) {
      await putOnReviewQueue(db, [op.id]);
      shown++;
    }
  }
  const last = verified.at(-1)?.decidedAt;
  if (last && last.getTime() !== since.getTime())
    await db.shopState.upsert({ where: { shop }, create: { shop, limitsCheckedUntil: last }, update: { limitsCheckedUntil: last } });
  return shown;
}

/** The worker's watch over refunds made outside the app, for the shops that set limits. */
export function outsideRefundsWork(): ShopWork {
  return {
    name: "refunds over limits made outside the app",
    async shops({ db }) {
      return (await db.refundLimits.findMany({ select: { shop: true }, take: 1000 })).map((row) => row.shop);
    },
    async handle(shop, { db, now }) {
      const shown = await judgeOutsideRefunds(db, shop, now());
      return shown ? { shown } : undefined;
    },
  };
}
