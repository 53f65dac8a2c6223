import type { Operation, PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { LoadedContract } from "../contracts/load";
import type { ReadbackOutcome } from "../shopify/admin/refund-readback.server";
import { earlierDuplicates } from "../verdicts/duplicates";
import type { ObservationRecord } from "./operations.server";
import { webhookEvidence } from "./webhook-evidence.server";

/** What a person confirmed when issuing the refund from the app (the record's "Yes, another refund"). */
async function intendedRefund(db: PrismaClient, op: Pick<Operation, "shop" | "refundGid">) {
  const record = await db.refundRecord.findFirst({
    where: { shop: op.shop, refundRef: op.refundGid, confirmedAnother: true },
    select: { confirmedBy: true, createdAt: true },
  });
  return record ? { confirmed: true, by: record.confirmedBy, at: record.createdAt.toISOString() } : { confirmed: false, by: null, at: null };
}

// A stored read-back (an observation's data): only whether it held the refund matters here.
const storedReadback = z.object({ data: z.object({ refund: z.unknown() }) });
/** A stored read-back that answered without the refund; one that does not parse ends the run of them. */
function readWithoutRefund(data: string | null): boolean {
  try {
    const parsed = storedReadback.safeParse(JSON.parse(data ?? "null"));
    return parsed.success && !parsed.data.data.refund;
  } catch {
    return false;
  }
}

/**
 * Consecutive read-backs up to this one, after the stale read window, that Shopify answered without
 * the refund. Counted only when this one did not show it: a read that shows it resets the count.
 */
async function readsWithoutRefund(db: PrismaClient, op: Pick<Operation, "id">, windowEnd: Date): Promise<number> {
  const earlier = await db.observation.findMany({
    where: { operationId: op.id, channel: "refund_readback", ok: true, observedAt: { gte: windowEnd } },
    orderBy: { observedAt: "desc" },
    take: 50,
    select: { data: true },
  });
  let count = 1;
  for (const row of earlier) {
    if (!readWithoutRefund(row.data)) break;
    count++;
  }
  return count;
}

export interface Observed {
  observed: Record<string, unknown>;
  observations: ObservationRecord[];
}

/**
 * What the operation's contract version observes, and the records of it: the read-back (left out
 * while inside the stale read window and without the refund: no evidence), the webhooks, and, for
 * the channels 1.2.0 declares, the earlier refunds of the same amount in Shopify's record of the
 * order, the person's confirmation, and the reads that did not show the refund.
 */
export async function observe(
  db: PrismaClient,
  contract: LoadedContract,
  op: Operation,
  readback: Exclude<ReadbackOutcome, { deferred: true }>,
  at: { observedAt: Date; windowEnd: Date; windowOpen: boolean },
): Promise<Observed> {
  const declared = new Set(contract.contract.channels.map((c) => c.id));
  const webhooks = await webhookEvidence(db, op);
  const observed: Record<string, unknown> = {};
  const observations: ObservationRecord[] = [
    readback.ok
      ? { channel: "refund_readback", observedAt: at.observedAt, ok: true, data: readback.body, apiVersion: readback.apiVersion }
      : { channel: "refund_readback", observedAt: at.observedAt, ok: false, error: readback.error, apiVersion: readback.apiVersion },
  ];
  const add = (channel: string, data: unknown, apiVersion: string | null = readback.apiVersion) => {
    observed[channel] = data;
    observations.push({ channel, observedAt: at.observedAt, ok: true, data, apiVersion });
  };
  add("refund_events", webhooks.refund_events, webhooks.apiVersions.refund_events);
  if (declared.has("order_refund_events")) add("order_refund_events", webhooks.order_refund_events, webhooks.apiVersions.order_refund_events);
  const refund = readback.ok ? readback.body.data.refund : null;
  if (readback.ok && (refund || !at.windowOpen)) observed.refund_readback = readback.body;
  const intended = declared.has("intended_refund") ? await intendedRefund(db, op) : null;
  if (intended) add("intended_refund", intended, null);
  if (declared.has("earlier_duplicates") && refund) add("earlier_duplicates", earlierDuplicates(refund, refund.order.refunds, intended?.confirmed));
  if (declared.has("refund_absence") && readback.ok && !at.windowOpen)
    add("refund_absence", { reads_without_refund: refund ? 0 : await readsWithoutRefund(db, op, at.windowEnd) });
  return { observed, observations };
}
