import { z } from "zod";
import type { BackfillSummary } from "./summary.server";

export interface BackfillView {
  state: string;
  days: number;
  objectCount: number;
  refundsFound: number;
  refundsVerified: number;
  message: string | null;
  summary: string | null;
}

export const BACKFILL_STATE_LABELS: Record<string, string> = {
  queued: "Queued",
  reading: "Reading Shopify",
  verifying: "Verifying",
  done: "Done",
  failed: "Failed",
};

const count = z.number().int().nonnegative();
/** A stored summary (Backfill.summary); one written before a field existed reads it as 0. */
const storedSummary = z.object({
  days: count,
  refunds: count,
  verified: count,
  contradicted: count,
  duplicates: count,
  wrongAmount: count,
  failed: count,
  unverifiable: count,
  pending: count,
  alreadyWatched: count,
  outsideWindow: count,
  badLines: count,
  unreadable: count,
  withoutTransactions: count.default(0),
  readAt: z.string().nullable(),
}) satisfies z.ZodType<BackfillSummary, z.ZodTypeDef, unknown>;

/** The summary of a finished backfill, or null (none yet, or a column that does not hold one). */
export function parsedSummary(backfill: Pick<BackfillView, "summary">): BackfillSummary | null {
  if (!backfill.summary) return null;
  try {
    const parsed = storedSummary.safeParse(JSON.parse(backfill.summary));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Where it stands, in a line: the CLI's progress line and the dashboard's card both say this. */
export function progressText(backfill: BackfillView): string {
  const count = (n: number) => n.toLocaleString("en-US");
  switch (backfill.state) {
    case "queued":
      // Why it waits (Shopify busy with another bulk read, a retry), or why fewer days than asked.
      return backfill.message ?? `Queued: the last ${backfill.days} days`;
    case "reading":
      return backfill.message ?? `Reading Shopify: ${count(backfill.objectCount)} records so far`;
    case "verifying":
      return `Verifying ${count(backfill.refundsVerified)} of ${count(backfill.refundsFound)} refunds`;
    case "failed":
      return `Failed: ${backfill.message ?? "no reason recorded"}`;
    default:
      return "Done";
  }
}

/** 0 to 100: reading counts as the first tenth, verifying as the rest. */
export function progressPercent(backfill: BackfillView): number {
  if (backfill.state === "done") return 100;
  if (backfill.state === "verifying") return 10 + Math.floor((90 * backfill.refundsVerified) / Math.max(backfill.refundsFound, 1));
  return backfill.state === "reading" ? 5 : 0;
}
