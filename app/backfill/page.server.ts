import type { Backfill } from "@prisma/client";
import { z } from "zod";
import db from "../db.server";
import { BACKFILL_STATE_LABELS, parsedSummary, progressPercent, progressText } from "./progress";
import { DEFAULT_BACKFILL_DAYS, latestBackfill, MAX_BACKFILL_DAYS, requestBackfill } from "./request.server";
import { summarySentence } from "./summary.server";

export type BackfillCardData = ReturnType<typeof backfillCard>;

/** What the dashboard's history card shows of a backfill (null: the shop has none). */
export function backfillCard(backfill: Backfill | null) {
  if (!backfill) return null;
  const summary = parsedSummary(backfill);
  return {
    id: backfill.id,
    state: backfill.state,
    stateLabel: BACKFILL_STATE_LABELS[backfill.state] ?? backfill.state,
    running: backfill.activeShop !== null,
    days: backfill.days,
    progress: progressText(backfill),
    percent: progressPercent(backfill),
    notice: backfill.state === "queued" || backfill.state === "done" ? backfill.message : null,
    summary,
    sentence: summary ? summarySentence(summary) : null,
    requestedAt: backfill.createdAt.toISOString(),
    finishedAt: backfill.finishedAt?.toISOString() ?? null,
  };
}

export function loadBackfillCard(shop: string) {
  return latestBackfill(db, shop).then(backfillCard);
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
    const errors = parsed.error.flatten().fieldErrors;
    return { ok: false as const, status: 422, fieldErrors: { days: errors.days?.[0] ?? errors.intent?.[0] ?? "This form could not be read." } };
  }
  const request = await requestBackfill(db, shop, parsed.data.days, "dashboard", now);
  return { ok: true as const, created: request.created, notice: request.notice ?? null, backfill: backfillCard(request.backfill) };
}
