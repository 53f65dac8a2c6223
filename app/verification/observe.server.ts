import type { Operation, PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { LoadedContract } from "../contracts/load";
import type { ReadbackOutcome } from "../shopify/admin/refund-readback.server";
import { earlierDuplicates } from "../verdicts/duplicates";
import type { ObservationRecord } from "./verdicts.server";
import { webhookFacts, type WebhookFacts } from "./webhook-facts.server";

type Intended = { confirmed: boolean; by: string | null; at: string | null };

/** What a person confirmed when issuing the shop's refunds from the app (the record's "Yes, another refund"), read in one query. */
async function intendedRefunds(db: PrismaClient, shop: string, refundGids: string[]): Promise<(refundGid: string) => Intended> {
  const records = refundGids.length
    ? await db.refundRecord.findMany({
        where: { shop, refundRef: { in: refundGids }, confirmedAnother: true },
        orderBy: { createdAt: "asc" },
        select: { refundRef: true, confirmedBy: true, createdAt: true },
      })
    : [];
  const byRefund = new Map<string, Intended>();
  for (const r of records) if (!byRefund.has(r.refundRef!)) byRefund.set(r.refundRef!, { confirmed: true, by: r.confirmedBy, at: r.createdAt.toISOString() });
  return (refundGid) => byRefund.get(refundGid) ?? { confirmed: false, by: null, at: null };
}

// A stored read-back (an observation's data): only whether it held the refund, and its order, matters here.
const storedReadback = z.object({ data: z.object({ refund: z.unknown(), order: z.unknown().optional() }) });

/** What a read-back answered: the refund, no refund, or neither the refund nor its order. */
type Absence = "refund shown" | "no refund" | "no refund nor order";

function absenceIn(data: { refund?: unknown; order?: unknown }): Absence {
  if (data.refund) return "refund shown";
  return data.order === null ? "no refund nor order" : "no refund";
}

/** A stored read-back's answer; one that does not parse counts as showing the refund, ending any run of reads without it. */
function storedAbsence(data: string | null): Absence {
  try {
    const parsed = storedReadback.safeParse(JSON.parse(data ?? "null"));
    return parsed.success ? absenceIn(parsed.data.data) : "refund shown";
  } catch {
    return "refund shown";
  }
}

/**
 * Consecutive read-backs up to this one, after the stale read window, that Shopify answered
 * without the refund, and of those the run that showed neither the refund nor its order. Counted
 * only when this one did not show the refund: a read that shows it resets both.
 */
async function readsWithout(db: PrismaClient, op: Pick<Operation, "id">, windowEnd: Date, latest: Absence) {
  const earlier = await db.observation.findMany({
    where: { operationId: op.id, channel: "refund_readback", ok: true, observedAt: { gte: windowEnd } },
    orderBy: { observedAt: "desc" },
    take: 50,
    select: { data: true },
  });
  const answers = [latest, ...earlier.map((row) => storedAbsence(row.data))];
  const run = (counted: (a: Absence) => boolean) => {
    const end = answers.findIndex((a) => !counted(a));
    return end === -1 ? answers.length : end;
  };
  return { reads_without_refund: run((a) => a !== "refund shown"), reads_without_order: run((a) => a === "no refund nor order") };
}

export interface Observed {
  observed: Record<string, unknown>;
  observations: ObservationRecord[];
}

/** What the database holds about a batch of one shop's operations, read once for the batch. */
export interface StoredFacts {
  webhooks: (op: Operation) => WebhookFacts;
  intended: (refundGid: string) => Intended;
  /** The run of reads without the refund (and its order) up to this one: read for the operation that needs it, only after the window. */
  readsWithout: (op: Pick<Operation, "id">, windowEnd: Date, latest: Absence) => Promise<{ reads_without_refund: number; reads_without_order: number }>;
}

/** Reads what the database holds of one shop's operations about to be evaluated: two queries, whatever the batch's size. */
export async function storedFacts(db: PrismaClient, shop: string, operations: Operation[]): Promise<StoredFacts> {
  const [webhooks, intended] = await Promise.all([
    webhookFacts(db, shop, operations),
    intendedRefunds(
      db,
      shop,
      operations.map((op) => op.refundGid),
    ),
  ]);
  return { webhooks, intended, readsWithout: (op, windowEnd, latest) => readsWithout(db, op, windowEnd, latest) };
}

/**
 * What the operation's contract version observes, and the records of it: the read-back (left out
 * while inside the stale read window and without the refund: no evidence), the webhooks, and, for
 * the channels 1.2.0 declares, the earlier refunds of the same amount in Shopify's record of the
 * order, the person's confirmation, and the reads that did not show the refund (nor, from 1.3.0,
 * its order).
 */
export async function observe(
  stored: StoredFacts,
  contract: LoadedContract,
  op: Operation,
  readback: Exclude<ReadbackOutcome, { deferred: true }>,
  at: { observedAt: Date; windowEnd: Date; windowOpen: boolean },
): Promise<Observed> {
  const declared = new Set(contract.contract.channels.map((c) => c.id));
  const webhooks = stored.webhooks(op);
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
  const intended = declared.has("intended_refund") ? stored.intended(op.refundGid) : null;
  if (intended) add("intended_refund", intended, null);
  if (declared.has("earlier_duplicates") && refund) add("earlier_duplicates", earlierDuplicates(refund, refund.order.refunds, intended?.confirmed));
  if (declared.has("refund_absence") && readback.ok && !at.windowOpen) {
    const latest = absenceIn(readback.body.data);
    add(
      "refund_absence",
      latest === "refund shown" ? { reads_without_refund: 0, reads_without_order: 0 } : await stored.readsWithout(op, at.windowEnd, latest),
    );
  }
  return { observed, observations };
}
