import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { nextCheckAt } from "../contracts/timing";
import { toMinorUnits } from "../money/currency";
import type { RefundClaim } from "../webhooks/refund-payload";

export interface DeliveryHeaders {
  shop: string;
  webhookId: string;
  eventId: string | null;
  topic: string;
  triggeredAt: Date | null;
  apiVersion: string;
}

export type IntakeOutcome = "new" | "redelivery";

/**
 * Stores a refunds/create delivery and makes sure its refund has an operation, in three
 * statements that run the same on SQLite and PostgreSQL (Prisma's tagged raw SQL maps Dates and
 * BigInts for each): the webhook route is the hot path, and Prisma's query builder costs about a
 * millisecond a statement here.
 * - A redelivery (same webhook id) only counts itself: `redeliveries + 1`.
 * - The operation is opened unless one exists for the refund (from the app, a sweep or another event).
 * - New evidence makes every pending operation on the order due now, and voids claims on them.
 */
export async function recordRefundDelivery(
  db: PrismaClient,
  contract: LoadedContract,
  headers: DeliveryHeaders,
  claim: RefundClaim,
  now: Date,
): Promise<IntakeOutcome> {
  const refundCreatedAt = new Date(claim.createdAt);
  const [stored] = await db.$queryRaw<{ redeliveries: number | bigint }[]>`
    INSERT INTO "WebhookDelivery" ("id", "shop", "webhookId", "eventId", "topic", "triggeredAt", "apiVersion", "refundGid", "orderGid", "refundCreatedAt", "receivedAt", "redeliveries")
    VALUES (${randomUUID()}, ${headers.shop}, ${headers.webhookId}, ${headers.eventId}, ${headers.topic}, ${headers.triggeredAt}, ${headers.apiVersion}, ${claim.refundGid}, ${claim.orderGid}, ${refundCreatedAt}, ${now}, 0)
    ON CONFLICT ("shop", "webhookId") DO UPDATE SET "redeliveries" = "WebhookDelivery"."redeliveries" + 1
    RETURNING "redeliveries"`;
  if (Number(stored.redeliveries) > 0) return "redelivery";

  const firstCheck = new Date(Math.max(nextCheckAt(contract.contract.timing, refundCreatedAt.getTime(), 0).atMs, now.getTime()));
  const amountMinor = claim.currency ? (toMinorUnits(claim.amount, claim.currency) ?? null) : null;
  const opened = await db.$executeRaw`
    INSERT INTO "Operation" ("id", "shop", "refundGid", "orderGid", "origin", "contractId", "contractVersion", "contractHash", "contractDeclaredHash",
      "amount", "currency", "amountMinor", "startedAt", "status", "reasons", "classes", "escalate", "attempts", "readFailures", "nextDueAt", "revision", "reviewState", "createdAt", "updatedAt")
    VALUES (${randomUUID()}, ${headers.shop}, ${claim.refundGid}, ${claim.orderGid}, 'webhook', ${contract.contract.id}, ${contract.contract.version}, ${contract.computedHash}, ${contract.declaredHash},
      ${claim.amount}, ${claim.currency}, ${amountMinor}, ${refundCreatedAt}, 'PENDING', '[]', '[]', false, 0, 0, ${firstCheck}, 0, 'none', ${now}, ${now})
    ON CONFLICT ("shop", "refundGid") DO NOTHING`;

  // An operation that already existed is re-checked now; so is every other pending one on the order
  // (not the history's: the backfill decides those from its bulk read, the read-back has no evidence for them).
  const skipOwn = opened === 1 ? claim.refundGid : "";
  await db.$executeRaw`
    UPDATE "Operation" SET "nextDueAt" = ${now}, "claimedBy" = NULL, "claimedUntil" = NULL, "revision" = "revision" + 1, "updatedAt" = ${now}
    WHERE "shop" = ${headers.shop} AND "orderGid" = ${claim.orderGid} AND "status" = 'PENDING' AND "refundGid" <> ${skipOwn} AND "origin" <> 'backfill'`;
  return "new";
}
