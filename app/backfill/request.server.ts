import type { Backfill, PrismaClient } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";

/** `read_orders` shows the last 60 days of orders; older ones need `read_all_orders`. */
export const DEFAULT_BACKFILL_DAYS = 60;
export const MAX_DAYS_WITHOUT_ALL_ORDERS = 60;
export const MAX_BACKFILL_DAYS = 365;
/** Refunds younger than this when the backfill starts are the live channels' (their webhook may still be on its way). */
export const LIVE_MARGIN_MS = 60_000;

export type BackfillOrigin = "install" | "dashboard" | "cli";

export interface BackfillRequest {
  backfill: Backfill;
  /** false: one was already running, and this is it. */
  created: boolean;
  /** Why fewer days than asked are read, when so. */
  notice?: string;
}

export async function grantedAllOrders(db: PrismaClient, shop: string): Promise<boolean> {
  const session = await db.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } });
  return (session?.scope ?? "").split(",").includes("read_all_orders");
}

/**
 * Asks for a backfill of the shop's last `days` days. One runs per shop at a time (the unique
 * `activeShop`): a second request, a second click, finds the running one and changes nothing.
 */
export async function requestBackfill(db: PrismaClient, shop: string, days: number, requestedBy: BackfillOrigin, now: Date): Promise<BackfillRequest> {
  const running = await db.backfill.findUnique({ where: { activeShop: shop } });
  if (running) return { backfill: running, created: false };
  let granted = Math.min(Math.max(Math.floor(days), 1), MAX_BACKFILL_DAYS);
  let notice: string | undefined;
  if (granted > MAX_DAYS_WITHOUT_ALL_ORDERS && !(await grantedAllOrders(db, shop))) {
    // The scope's name is for the CLI and the log; the card offers no more days than the shop allows.
    notice = `Shopify shows this app the last ${MAX_DAYS_WITHOUT_ALL_ORDERS} days of orders (older ones need the read_all_orders permission); reading ${MAX_DAYS_WITHOUT_ALL_ORDERS} days.`;
    granted = MAX_DAYS_WITHOUT_ALL_ORDERS;
  }
  const id = crypto.randomUUID();
  const created = await createOnce(() =>
    db.backfill.create({
      data: {
        id,
        shop,
        activeShop: shop,
        requestedBy,
        days: granted,
        since: new Date(now.getTime() - granted * 86_400_000),
        until: new Date(now.getTime() - LIVE_MARGIN_MS),
        nextDueAt: now,
        message: notice ?? null,
      },
    }),
  );
  // Lost the race to a concurrent request: that one runs.
  const backfill = created ? await db.backfill.findUniqueOrThrow({ where: { id } }) : await db.backfill.findUniqueOrThrow({ where: { activeShop: shop } });
  return { backfill, created, notice };
}

/**
 * A new shop's history is verified once, on install (a shop's first authentication): later
 * backfills are asked for from the dashboard or the CLI. Run by shopify.server.ts's afterAuth.
 */
export async function firstBackfillOnInstall(db: PrismaClient, shop: string, now: Date): Promise<void> {
  if ((await db.backfill.count({ where: { shop } })) === 0) await requestBackfill(db, shop, DEFAULT_BACKFILL_DAYS, "install", now);
}

/** What the dashboard shows: the running backfill, else the latest one. */
export function latestBackfill(db: PrismaClient, shop: string): Promise<Backfill | null> {
  return db.backfill.findFirst({ where: { shop }, orderBy: { createdAt: "desc" } });
}
