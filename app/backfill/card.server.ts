import type { Backfill } from "@prisma/client";
import type { PrismaClient } from "@prisma/client";
import { BACKFILL_STATE_LABELS, parsedSummary, progressPercent, progressText } from "./progress";
import { grantedAllOrders, latestBackfill, MAX_BACKFILL_DAYS, MAX_DAYS_WITHOUT_ALL_ORDERS } from "./request.server";
import { summarySentence } from "./summary.server";

export type BackfillCardData = ReturnType<typeof backfillCard>;

/**
 * What the dashboard's history card shows of a backfill (null: the shop has none). `stillVerifying`:
 * its refunds whose verdict is not final yet, counted now (the summary counted them when the read ended).
 */
export function backfillCard(backfill: Backfill | null, stillVerifying?: number) {
  if (!backfill) return null;
  const stored = parsedSummary(backfill);
  const summary = stored && stillVerifying !== undefined ? { ...stored, pending: stillVerifying } : stored;
  // "Done" only once every refund it found has its verdict: not above "11 still being verified".
  const state = backfill.state === "done" && summary?.pending ? "verifying" : backfill.state;
  return {
    id: backfill.id,
    state,
    stateLabel: BACKFILL_STATE_LABELS[state] ?? state,
    running: backfill.activeShop !== null,
    days: backfill.days,
    progress: progressText(backfill),
    percent: progressPercent(backfill),
    summary,
    sentence: summary ? summarySentence(summary) : null,
    requestedAt: backfill.createdAt.toISOString(),
    finishedAt: backfill.finishedAt?.toISOString() ?? null,
  };
}

/** The history card: the latest backfill, and how many days the shop lets the app read (more than 60 only with read_all_orders). */
export async function loadBackfillCard(db: PrismaClient, shop: string) {
  const [backfill, allOrders] = await Promise.all([latestBackfill(db, shop), grantedAllOrders(db, shop)]);
  // This backfill's own refunds: opened since it was asked for, made inside the days it read.
  const stillVerifying =
    backfill?.state === "done"
      ? await db.operation.count({
          where: {
            shop,
            origin: "backfill",
            status: "PENDING",
            createdAt: { gte: backfill.createdAt },
            startedAt: { gte: backfill.since, lte: backfill.until },
          },
        })
      : undefined;
  return { backfill: backfillCard(backfill, stillVerifying), maxDays: allOrders ? MAX_BACKFILL_DAYS : MAX_DAYS_WITHOUT_ALL_ORDERS };
}
