import type { Backfill } from "@prisma/client";
import { z } from "zod";
import db from "../db.server";
import { fieldErrors } from "../lib/forms/field-errors";
import { BACKFILL_STATE_LABELS, parsedSummary, progressPercent, progressText } from "./progress";
import { DEFAULT_BACKFILL_DAYS, grantedAllOrders, latestBackfill, MAX_BACKFILL_DAYS, MAX_DAYS_WITHOUT_ALL_ORDERS, requestBackfill } from "./request.server";
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
export async function loadBackfillCard(shop: string) {
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

const backfillForm = z.object({
  intent: z.literal("backfill"),
  days: z.coerce
    .number({ invalid_type_error: "Choose how many days to read." })
    .int("Choose a whole number of days.")
    .min(1, "Read at least 1 day.")
    .max(MAX_BACKFILL_DAYS, `Shopify keeps at most ${MAX_BACKFILL_DAYS} days here.`)
    .default(DEFAULT_BACKFILL_DAYS),
});

/** The dashboard's "Verify history" button: starts a backfill, or shows the one running. */
export async function backfillAction(shop: string, form: FormData, now: Date) {
  const parsed = backfillForm.safeParse({ intent: form.get("intent"), days: form.get("days") ?? undefined });
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error, "form");
    return { ok: false as const, status: 422, fieldErrors: { days: errors.days ?? errors.intent ?? "This form could not be read." } };
  }
  const request = await requestBackfill(db, shop, parsed.data.days, "dashboard", now);
  return { ok: true as const, created: request.created, notice: request.notice ?? null, backfill: backfillCard(request.backfill) };
}
