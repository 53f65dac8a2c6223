import type { PrismaClient, RefundLimits } from "@prisma/client";
import { z } from "zod";
import { parseStored } from "../lib/db/stored-json";
import { readInSlices } from "../lib/db/slices";
import { toMinorUnits } from "../lib/money/currency";
import { NO_LIMITS, personOf, type PersonLimits, type RecentRefunds, type ShopLimits } from "./limits";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const minor = z
  .string()
  .regex(/^\d{1,18}$/)
  .transform((value) => BigInt(value));
const storedPeople = z.array(
  z.object({
    userId: z.string().regex(/^\d{1,20}$/),
    perRefundMinor: minor.nullable(),
    dailyMinor: minor.nullable(),
    approver: z.boolean(),
    setsLimits: z.boolean(),
  }),
);

export const peopleJson = (people: PersonLimits[]) =>
  JSON.stringify(
    people.map((p) => ({
      userId: p.userId,
      perRefundMinor: p.perRefundMinor?.toString() ?? null,
      dailyMinor: p.dailyMinor?.toString() ?? null,
      approver: p.approver,
      setsLimits: p.setsLimits,
    })),
  );

export function limitsOfRow(row: RefundLimits): ShopLimits {
  return {
    currency: row.currency,
    perRefundMinor: row.perRefundMinor,
    dailyPerStaffMinor: row.dailyPerStaffMinor,
    shopHourlyCount: row.shopHourlyCount,
    shopHourlyMinor: row.shopHourlyMinor,
    shopDailyCount: row.shopDailyCount,
    shopDailyMinor: row.shopDailyMinor,
    people: parseStored(storedPeople, row.people, "RefundLimits.people"),
    revision: row.revision,
  };
}

/** The shop's limits; none set (every one off, in `currency`) for a shop that never saved them: who may approve needs no currency. */
export async function readLimits(db: PrismaClient, shop: string, currency = ""): Promise<ShopLimits> {
  const row = await db.refundLimits.findUnique({ where: { shop } });
  return row ? limitsOfRow(row) : NO_LIMITS(currency);
}

/** Who is the shop's person making a request, as far as limits go: Shopify's word on the account owner, the shop's on the rest. */
export interface Actor {
  userId: string;
  name: string;
  accountOwner: boolean;
}

/** The account owner always may; anyone else only when the shop named them. */
export const mayApprove = (limits: ShopLimits, actor: Actor) => actor.accountOwner || Boolean(personOf(limits, actor.userId)?.approver);
export const maySetLimits = (limits: ShopLimits, actor: Actor) => actor.accountOwner || Boolean(personOf(limits, actor.userId)?.setsLimits);

/** Money that may have left for Shopify: sent (or being sent) and not refused. */
const LEFT_OUTCOMES = ["none", "unknown", "created", "key_conflict"];

/** An amount in the shop's currency, where the app knows it; 0 where it does not (it still counts as a refund). */
function inShopCurrency(shopCurrency: string, ...candidates: { minor: bigint | null | undefined; currency: string | null | undefined }[]): bigint {
  for (const c of candidates) if (c.minor !== null && c.minor !== undefined && c.currency === shopCurrency) return c.minor;
  return 0n;
}

/** Who made each of these refunds, where its refunds/create delivery said (user_id). */
export async function staffOfRefunds(db: PrismaClient, shop: string, refundGids: string[]): Promise<Map<string, string>> {
  if (!refundGids.length) return new Map();
  const deliveries = await readInSlices(refundGids, (slice) =>
    db.webhookDelivery.findMany({ where: { shop, refundGid: { in: slice }, staffUserId: { not: null } }, select: { refundGid: true, staffUserId: true } }),
  );
  return new Map(deliveries.map((d) => [d.refundGid, d.staffUserId!]));
}

/**
 * What already left that the limits count, in the day before `now` (not `now` itself): refunds the
 * app sent (by when they were sent: a request approved today counts today), and refunds made
 * outside the app (Shopify admin, POS, other apps) by their time, each once. A staff member's own
 * total counts what they asked for in the app and what the webhooks say they made elsewhere.
 */
export async function recentRefunds(db: PrismaClient, shop: string, userId: string, shopCurrency: string, now: Date): Promise<RecentRefunds> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const hourAgo = now.getTime() - HOUR_MS;
  const [records, outside] = await Promise.all([
    db.refundRecord.findMany({
      // One range of the (shop, sentAt) index: a record is stamped sent when it is released to be sent (decision 030).
      where: { shop, shopifyOutcome: { in: LEFT_OUTCOMES }, sentAt: { gte: dayAgo, lt: now } },
      select: {
        askedBy: true,
        refundRef: true,
        limitAmountMinor: true,
        shopAmountMinor: true,
        shopCurrency: true,
        amountMinor: true,
        currency: true,
        sentAt: true,
      },
    }),
    db.operation.findMany({
      where: { shop, origin: { in: ["webhook", "reconciliation"] }, startedAt: { gte: dayAgo, lt: now } },
      select: { refundGid: true, amountMinor: true, currency: true, shopAmount: true, shopCurrency: true, startedAt: true },
    }),
  ]);
  // A refund of the app's whose webhook opened its operation first is the record's, counted once.
  const ofTheApp = new Set(records.flatMap((r) => (r.refundRef ? [r.refundRef] : [])));
  const madeBy = await staffOfRefunds(
    db,
    shop,
    outside.map((op) => op.refundGid),
  );
  const left = [
    ...records.map((r) => ({
      at: r.sentAt!.getTime(),
      by: r.askedBy,
      minor: inShopCurrency(
        shopCurrency,
        { minor: r.limitAmountMinor, currency: shopCurrency },
        { minor: r.shopAmountMinor, currency: r.shopCurrency },
        { minor: r.amountMinor, currency: r.currency },
      ),
    })),
    ...outside
      .filter((op) => !ofTheApp.has(op.refundGid))
      .map((op) => ({
        at: op.startedAt.getTime(),
        by: madeBy.get(op.refundGid) ?? null,
        minor: inShopCurrency(
          shopCurrency,
          { minor: op.shopAmount && op.shopCurrency ? toMinorUnits(op.shopAmount, op.shopCurrency) : null, currency: op.shopCurrency },
          { minor: op.amountMinor, currency: op.currency },
        ),
      })),
  ];
  const sum = (list: typeof left) => list.reduce((total, r) => total + r.minor, 0n);
  const lastHour = left.filter((r) => r.at >= hourAgo);
  return {
    staffDayMinor: sum(left.filter((r) => r.by === userId)),
    shopHour: { count: lastHour.length, minor: sum(lastHour) },
    shopDay: { count: left.length, minor: sum(left) },
  };
}
