import { Prisma, type PrismaClient } from "@prisma/client";
import type { QueryCost } from "./transport";

/** The shop's bucket as every process of the app sees it: one row per shop in the database. */
export interface SharedBuckets {
  /** Takes `cost` points if the bucket holds them now; otherwise how long until it will (0: nothing known yet, send). */
  reserve(shop: string, cost: number, nowMs: number): Promise<{ reserved: true } | { reserved: false; waitMs: number }>;
  /**
   * Learns from Shopify's answer (`unused`: reserved points the request did not cost, negative when it cost more):
   * what it says is left, never more than our own count.
   */
  observe(shop: string, unused: number, cost: QueryCost | undefined, nowMs: number): Promise<void>;
}

/** CAST(… AS DOUBLE PRECISION) gives PostgreSQL a type for a parameter and SQLite the REAL affinity. */
const real = (value: number) => Prisma.sql`CAST(${value} AS DOUBLE PRECISION)`;
/** The bucket's points at `now`, refilled at its restore rate up to its maximum. */
const refilled = (now: Prisma.Sql, row = Prisma.raw(`"ShopifyBucket"`)) => Prisma.sql`
  (CASE WHEN ${row}."available" + (${now} - ${row}."atMs") * ${row}."restoreRate" / 1000.0 > ${row}."maximum" THEN ${row}."maximum"
        ELSE ${row}."available" + (${now} - ${row}."atMs") * ${row}."restoreRate" / 1000.0 END)`;

/**
 * Several workers and app processes spend one shop's bucket. Each process's own view (ThrottleGate)
 * cannot know what the others sent, and a restarted worker knows nothing: requests then reach
 * Shopify with the bucket empty. Here each request takes its points from the shared row in one
 * guarded UPDATE before it is sent, and each answer brings the row down to what Shopify says is
 * left (Shopify does not yet count requests still in flight, so it is never raised above our count),
 * giving back what the request was reserved for and did not cost. Background work passes
 * `keepForPeople` (a share of the bucket it leaves alone), so a person's request does not wait
 * behind a backfill or a burst.
 */
export function databaseBuckets(db: PrismaClient, keepForPeople = 0): SharedBuckets {
  // What must be in the bucket before a request of `cost` goes: its cost, and the share kept for
  // requests a person waits on (the refund form), never more than the bucket holds.
  const needed = (cost: number) =>
    Prisma.sql`(CASE WHEN ${real(cost)} + "maximum" * ${real(keepForPeople)} > "maximum" THEN "maximum" ELSE ${real(cost)} + "maximum" * ${real(keepForPeople)} END)`;
  return {
    async reserve(shop, cost, nowMs) {
      const now = real(nowMs);
      const taken = await db.$executeRaw`
        UPDATE "ShopifyBucket" SET "available" = ${refilled(now)} - ${real(cost)}, "atMs" = ${now}
        WHERE "shop" = ${shop} AND ${refilled(now)} >= ${needed(cost)}`;
      if (taken === 1) return { reserved: true };
      const row = await db.shopifyBucket.findUnique({ where: { shop } });
      if (!row) return { reserved: false, waitMs: 0 };
      const current = Math.min(row.maximum, row.available + ((nowMs - row.atMs) * row.restoreRate) / 1000);
      const missing = Math.min(cost + row.maximum * keepForPeople, row.maximum) - current;
      // A row that just changed under us can leave nothing missing: try again at once.
      return { reserved: false, waitMs: Math.max(1, Math.ceil((missing / row.restoreRate) * 1000)) };
    },
    async observe(shop, unused, cost, nowMs) {
      const status = cost?.throttleStatus;
      if (!status) return;
      const now = real(nowMs);
      await db.$executeRaw`
        INSERT INTO "ShopifyBucket" ("shop", "available", "maximum", "restoreRate", "atMs")
        VALUES (${shop}, ${real(status.currentlyAvailable)}, ${real(status.maximumAvailable)}, ${real(status.restoreRate)}, ${now})
        ON CONFLICT ("shop") DO UPDATE SET
          "available" = CASE WHEN ${refilled(now)} + ${real(unused)} < excluded."available" THEN ${refilled(now)} + ${real(unused)} ELSE excluded."available" END,
          "maximum" = excluded."maximum", "restoreRate" = excluded."restoreRate", "atMs" = excluded."atMs"`;
    },
  };
}
