import { z } from "zod";
import { parseDuplicates } from "../verdicts/duplicates";

/**
 * The refunds of one duplicate pair are one review item (issue 26). Under contract 1.2.0 only the
 * second of a pair is the duplicate, yet both refunds wait for a person when the first has a
 * problem of its own (Shopify recorded another amount for both), when a refund was made three
 * times (the third names the second), or when the pair was decided by a version that called both
 * duplicates (shopify.refund.history 1.0.0, shopify.refund.created 1.1.0). A pair is derived from
 * the evidence, never stored: a duplicate's observation names the refunds it repeats.
 */

/** The evidence channels that name the other refunds of a duplicate, in each contract version's shape. */
export const PAIR_CHANNELS = ["earlier_duplicates", "earlier_duplicates_in_bulk_read", "order_refunds_in_bulk_read", "order_refund_events"] as const;

/** shopify.refund.history 1.0.0's order_refunds_in_bulk_read: the refunds of this amount near it, itself among them. */
const nearbyRefunds = z.object({ refunds: z.array(z.string()) });
/** shopify.refund.created 1.1.0's order_refund_events: the order's refunds/create deliveries. */
const orderRefundEvents = z.object({ events: z.array(z.object({ resource_id: z.string() })) });

/** The refund ids a stored duplicate observation names (its data column); none when it is none of these shapes. */
export function refundsNamed(channel: string, data: string | null): string[] {
  if (channel === "earlier_duplicates" || channel === "earlier_duplicates_in_bulk_read") return parseDuplicates(data)?.refunds.map((r) => r.id) ?? [];
  let value: unknown;
  try {
    value = JSON.parse(data ?? "null");
  } catch {
    return [];
  }
  if (channel === "order_refunds_in_bulk_read") return nearbyRefunds.safeParse(value).data?.refunds ?? [];
  if (channel === "order_refund_events") return orderRefundEvents.safeParse(value).data?.events.map((e) => e.resource_id) ?? [];
  return [];
}

/** An item waiting for review, as pairing sees it. */
export interface PairCandidate {
  id: string;
  refundGid: string;
  orderGid: string;
  /** Which list it waits in ("live" or "history"): a pair is one item of one list. */
  list: string;
  startedAt: Date;
  /** The refunds its duplicate evidence names (empty for a refund that is not a duplicate). */
  names: string[];
}

/** Earliest refund first; in the same instant, by id. The first of a group is its anchor: resolving the group is decided on it. */
export const byMade = (a: Pick<PairCandidate, "startedAt" | "id">, b: Pick<PairCandidate, "startedAt" | "id">) =>
  a.startedAt.getTime() - b.startedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The groups of two or more candidates that are one duplicate: same order, same list, one naming
 * the other's refund (transitively: a refund made three times is one group). Each group earliest first.
 */
export function duplicateGroups(candidates: PairCandidate[]): PairCandidate[][] {
  const parent = new Map(candidates.map((c) => [c.id, c.id]));
  const root = (id: string): string => {
    let at = id;
    while (parent.get(at) !== at) at = parent.get(at)!;
    return at;
  };
  const byRefund = new Map(candidates.map((c) => [`${c.list} ${c.orderGid} ${c.refundGid}`, c]));
  for (const candidate of candidates) {
    for (const named of candidate.names) {
      const other = byRefund.get(`${candidate.list} ${candidate.orderGid} ${named}`);
      if (other && other.id !== candidate.id) parent.set(root(candidate.id), root(other.id));
    }
  }
  const groups = new Map<string, PairCandidate[]>();
  for (const candidate of candidates) groups.set(root(candidate.id), [...(groups.get(root(candidate.id)) ?? []), candidate]);
  return [...groups.values()].filter((group) => group.length > 1).map((group) => [...group].sort(byMade));
}
