import { Prisma, type PrismaClient, type ShopifyBucket } from "@prisma/client";
import { config } from "../../lib/config/env.server";
import type { QueryCost } from "./transport";

/** What one request's answer (or its failure) tells the shared count. */
export interface BucketAnswer {
  /** The points this request took from the shared row (0 when it was sent without a reservation). */
  reserved: number;
  /** Reserved points the request did not cost (negative when it cost more). */
  unused: number;
  /** Shopify's `extensions.cost`, when it answered one. */
  cost: QueryCost | undefined;
  /**
   * We gave up waiting (our timeout), not Shopify: the request may still be on its way and be
   * charged when it arrives, so its points stay in flight for another `inFlightForMs` from now.
   */
  mayStillArrive?: boolean;
}

/** The shop's bucket as every process of the app sees it: one row per shop in the database. */
export interface SharedBuckets {
  /** Takes `cost` points if the bucket holds them now; otherwise how long until it will (0: nothing known yet, send). */
  reserve(shop: string, cost: number, nowMs: number): Promise<{ reserved: true } | { reserved: false; waitMs: number }>;
  /**
   * Called once per request sent, whatever came back: the request is no longer in flight (unless
   * we gave up on it first: `mayStillArrive`), and the row learns what Shopify says is left, never
   * more than our own count.
   */
  answered(shop: string, answer: BucketAnswer, nowMs: number): Promise<void>;
}

export interface SharedBucketOptions {
  /** A share of the bucket this process's requests leave alone (background work leaves it to a person's request). */
  keepForPeople?: number;
  /** How long a reserved request can be in flight (twice the request timeout): past it, a process that never answered is taken for dead. */
  inFlightForMs?: number;
}

/** CAST(… AS DOUBLE PRECISION) gives PostgreSQL a type for a parameter and SQLite the REAL affinity. */
const real = (value: number) => Prisma.sql`CAST(${value} AS DOUBLE PRECISION)`;
const lesser = (a: Prisma.Sql, b: Prisma.Sql) => Prisma.sql`(CASE WHEN ${a} > ${b} THEN ${b} ELSE ${a} END)`;
const greater = (a: Prisma.Sql, b: Prisma.Sql) => Prisma.sql`(CASE WHEN ${a} < ${b} THEN ${b} ELSE ${a} END)`;
/**
 * The in-flight window's start never moves back: `now` is read before the statement is sent, and
 * a statement that waited for the row (another process's) could otherwise end the window early on
 * requests reserved after it. (Every process must read one clock, NTP's: `atMs` relies on it too.)
 */
const latest = (now: Prisma.Sql) => greater(Prisma.sql`"ShopifyBucket"."pendingAtMs"`, now);

/**
 * The row holds Shopify's points less those reserved by requests not yet arrived, and so refills to
 * the maximum less the points in flight: Shopify caps its own count at the maximum and charges a
 * request when it arrives, so while one is on its way a full Shopify bucket cannot gain its points
 * (refilled to the maximum, the row handed them out twice, and the late request was THROTTLED).
 * The SQL and `pointsNow` say the same thing, for the UPDATE's guard and for the wait.
 */
function rowSql(now: Prisma.Sql, inFlightForMs: number) {
  const row = Prisma.raw(`"ShopifyBucket"`);
  const inFlight = Prisma.sql`(CASE WHEN ${now} - ${row}."pendingAtMs" >= ${real(inFlightForMs)} THEN 0 ELSE ${row}."pending" END)`;
  const refilled = lesser(
    Prisma.sql`${row}."available" + (${now} - ${row}."atMs") * ${row}."restoreRate" / 1000.0`,
    Prisma.sql`${row}."maximum" - ${inFlight}`,
  );
  return { inFlight, refilled };
}

function pointsNow(row: ShopifyBucket, nowMs: number, inFlightForMs: number): number {
  const inFlight = nowMs - row.pendingAtMs >= inFlightForMs ? 0 : row.pending;
  return Math.min(row.maximum - inFlight, row.available + ((nowMs - row.atMs) * row.restoreRate) / 1000);
}

/**
 * Several workers and app processes spend one shop's bucket. Each process's own view (ThrottleGate)
 * cannot know what the others sent, and a restarted worker knows nothing: requests then reach
 * Shopify with the bucket empty. Here each request takes its points from the shared row in one
 * guarded UPDATE before it is sent and counts them as in flight; each answer releases them and
 * brings the row down to what Shopify says is left (Shopify does not yet count requests still in
 * flight, so it is never raised above our count), giving back what the request did not cost.
 * Background work passes `keepForPeople`, so a person's request does not wait behind a backfill or
 * a burst.
 */
export function databaseBuckets(db: PrismaClient, options: SharedBucketOptions = {}): SharedBuckets {
  const keepForPeople = options.keepForPeople ?? 0;
  // Twice the request timeout: the window starts when the points are reserved, the request's
  // timer only once the reservation has come back (decision 035).
  const inFlightForMs = options.inFlightForMs ?? 2 * config().VERIFIER_REQUEST_TIMEOUT_MS;
  // What must be in the bucket before a request of `cost` goes: its cost, and the share kept for
  // requests a person waits on (the refund form), never more than the bucket holds.
  const needed = (cost: number) => lesser(Prisma.sql`${real(cost)} + "maximum" * ${real(keepForPeople)}`, Prisma.sql`"maximum"`);
  return {
    async reserve(shop, cost, nowMs) {
      const now = real(nowMs);
      const { inFlight, refilled } = rowSql(now, inFlightForMs);
      const taken = await db.$executeRaw`
        UPDATE "ShopifyBucket" SET "available" = ${refilled} - ${real(cost)}, "atMs" = ${now},
          "pending" = ${inFlight} + ${real(cost)}, "pendingAtMs" = ${latest(now)}
        WHERE "shop" = ${shop} AND ${refilled} >= ${needed(cost)}`;
      if (taken === 1) return { reserved: true };
      const row = await db.shopifyBucket.findUnique({ where: { shop } });
      if (!row) return { reserved: false, waitMs: 0 };
      const missing = Math.min(cost + row.maximum * keepForPeople, row.maximum) - pointsNow(row, nowMs, inFlightForMs);
      // A row that just changed under us can leave nothing missing: try again at once. Points held
      // by requests in flight come back with their answers, sooner than the refill alone says.
      return { reserved: false, waitMs: Math.max(1, Math.ceil((missing / row.restoreRate) * 1000)) };
    },
    async answered(shop, { reserved, unused, cost, mayStillArrive }, nowMs) {
      const now = real(nowMs);
      const { inFlight, refilled } = rowSql(now, inFlightForMs);
      if (mayStillArrive && reserved > 0) {
        // Kept in flight, and counted again if the window had closed on it (no reservation for a while).
        await db.$executeRaw`
          UPDATE "ShopifyBucket" SET "pending" = ${greater(inFlight, real(reserved))}, "pendingAtMs" = ${latest(now)} WHERE "shop" = ${shop}`;
        return;
      }
      const released = greater(Prisma.sql`${inFlight} - ${real(reserved)}`, Prisma.sql`0`);
      const status = cost?.throttleStatus;
      if (!status) {
        if (reserved > 0) await db.$executeRaw`UPDATE "ShopifyBucket" SET "pending" = ${released} WHERE "shop" = ${shop}`;
        return;
      }
      await db.$executeRaw`
        INSERT INTO "ShopifyBucket" ("shop", "available", "maximum", "restoreRate", "atMs", "pending", "pendingAtMs")
        VALUES (${shop}, ${real(status.currentlyAvailable)}, ${real(status.maximumAvailable)}, ${real(status.restoreRate)}, ${now}, 0, ${now})
        ON CONFLICT ("shop") DO UPDATE SET
          "available" = ${lesser(Prisma.sql`${refilled} + ${real(unused)}`, Prisma.sql`excluded."available"`)},
          "maximum" = excluded."maximum", "restoreRate" = excluded."restoreRate", "atMs" = excluded."atMs",
          "pending" = ${released}`;
    },
  };
}
