import { z } from "zod";
import { sameMoney } from "../lib/money/currency";
import { numberOfGid } from "../shopify/ids";

/**
 * What a duplicate refund is, once, for every contract that names one (shopify.refund.created
 * 1.2.0's `earlier_duplicates`, shopify.refund.history 1.1.0's `earlier_duplicates_in_bulk_read`):
 * another refund of the same amount, in the same (presentment) currency, on the same order,
 * created by Shopify's clock within the ten minutes before this one, while no person confirmed
 * this one as intended. Two refunds of different amounts are two refunds; the first of a pair is
 * not a duplicate of the second; a refund hours later is not one "since the operation started".
 * contracts/README.md ("What a duplicate is") gives the cases.
 */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

/** A refund as Shopify recorded it: enough to tell a duplicate. */
export interface RecordedRefund {
  id: string;
  /** Nullable in the schema: a refund without its time is never taken for an earlier one (nor judged a duplicate). */
  createdAt?: string | null;
  totalRefundedSet: { presentmentMoney: { amount: string; currencyCode: string } };
}

export interface EarlierDuplicate {
  id: string;
  created_at: string;
  amount: string;
  currency: string;
  seconds_before: number;
}

/** The channel's output: `count` is what a contract's condition reads. */
export interface DuplicatesOutput {
  count: number;
  refunds: EarlierDuplicate[];
  /** A person confirmed this refund as another one on the order (then count is 0, whatever came before). */
  intended: boolean;
}

/** Shopify's refund ids grow: the later of two in one second has the larger (an id without a number, none). */
const growing = (gid: string) => {
  const number = numberOfGid(gid);
  return /^\d+$/.test(number) ? BigInt(number) : 0n;
};

/** Earlier by Shopify's clock; in the same second (Shopify stamps whole seconds), by its ids, which grow. */
function isBefore(other: RecordedRefund, refund: RecordedRefund): boolean {
  const [a, b] = [Date.parse(other.createdAt ?? ""), Date.parse(refund.createdAt ?? "")];
  return a < b || (a === b && growing(other.id) < growing(refund.id));
}

/** The refunds of the order (`orderRefunds`, this one among them or not) that make `refund` a duplicate. */
export function earlierDuplicates(refund: RecordedRefund, orderRefunds: RecordedRefund[], intended = false): DuplicatesOutput {
  const at = Date.parse(refund.createdAt ?? "");
  const refunds =
    intended || Number.isNaN(at)
      ? []
      : orderRefunds
          .filter(
            (other) =>
              other.id !== refund.id &&
              isBefore(other, refund) &&
              at - Date.parse(other.createdAt ?? "") <= DUPLICATE_WINDOW_MS &&
              sameMoney(other.totalRefundedSet.presentmentMoney, refund.totalRefundedSet.presentmentMoney),
          )
          .map((other) => ({
            id: other.id,
            created_at: other.createdAt!,
            amount: other.totalRefundedSet.presentmentMoney.amount,
            currency: other.totalRefundedSet.presentmentMoney.currencyCode,
            seconds_before: Math.round((at - Date.parse(other.createdAt!)) / 1000),
          }));
  return { count: refunds.length, refunds, intended };
}

/** A stored duplicates observation (its data column), parsed: the channel's output, or null when it is not one. */
const storedOutput = z.object({
  count: z.number().int().nonnegative(),
  refunds: z.array(z.object({ id: z.string(), created_at: z.string(), amount: z.string(), currency: z.string(), seconds_before: z.number() })),
  intended: z.boolean().default(false),
});
export const DUPLICATE_CHANNELS = ["earlier_duplicates", "earlier_duplicates_in_bulk_read"] as const;

export function parseDuplicates(data: string | null): DuplicatesOutput | null {
  try {
    const parsed = storedOutput.safeParse(JSON.parse(data ?? "null"));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const apart = (seconds: number) =>
  seconds < 120 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${Math.round(seconds / 60)} minute${Math.round(seconds / 60) === 1 ? "" : "s"}`;

/** "made 4 seconds after another refund of $40.00 on #1001": which refunds a duplicate repeats, in a merchant's words. */
export function duplicateOfInWords(duplicates: DuplicatesOutput, money: (amount: string, currency: string) => string, where: string): string {
  const [nearest] = [...duplicates.refunds].sort((a, b) => a.seconds_before - b.seconds_before);
  const others = duplicates.refunds.length - 1;
  // Shopify stamps whole seconds: two refunds of one second are told apart by their ids only.
  const when = nearest.seconds_before === 0 ? "in the same second as" : `${apart(nearest.seconds_before)} after`;
  return `made ${when} another refund of ${money(nearest.amount, nearest.currency)} on ${where}${others > 0 ? ` (and ${others} more of that amount in the 10 minutes before it)` : ""}`;
}

/**
 * The review queue's sentence for the refunds of one duplicate group, one item: how many, of what
 * amount, on which order, and whether they repeat an earlier refund that is not in the item (the
 * first of a refund made three times is verified: the second and third repeat it).
 */
export function duplicateGroupInWords(group: { count: number; amount: string; where: string; repeatsEarlier: boolean }): string {
  const what = `${group.count} refunds of ${group.amount} on ${group.where}`;
  return group.repeatsEarlier
    ? `${what} repeat an earlier refund of that amount made less than 10 minutes before them: one review item, resolved once for all ${group.count}.`
    : `${what} were made within 10 minutes of each other: one review item, resolved once for all ${group.count}.`;
}
