import type { PrismaClient, RefundApproval, RefundRecord } from "@prisma/client";
import { breachesSentence, countsWhatLeft, hasAnyLimit, limitBreaches, type Breach } from "../guardrails/limits";
import { readLimits, recentRefunds } from "../guardrails/limits.server";
import { askForApproval } from "../guardrails/requests.server";
import type { OrderForRefund } from "../shopify/admin/refunds.server";
import { withLock, type Locked } from "../lib/db/locks";
import { REFUND_LOCK_TIMES, shopLimitsLock } from "./locks.server";
import { amountInShopCurrency, refundedMinor } from "./plan";
import { AttemptLimitReached, mintRecord } from "./records.server";

const NOTHING_LEFT = { staffDayMinor: 0n, shopHour: { count: 0, minor: 0n }, shopDay: { count: 0, minor: 0n } };

type MintData = Parameters<typeof mintRecord>[1];
export interface Minted {
  /** null: the order has no attempt left. */
  record: RefundRecord | null;
  /** Set when the refund went over a limit: the request waiting for an approver, and the limits in words for the person who asked. */
  approval?: { request: RefundApproval; breaches: Breach[]; message: string };
}

/**
 * Mints the refund's record against the shop's limits (decision 030): under them it is minted to
 * be sent at once; over any, it is minted `held` with a request for approval, and nothing goes to
 * Shopify. Limits that count what already left take the shop's turn first (its limits' lock).
 */
export async function mintUnderLimits(
  db: PrismaClient,
  ask: { shop: string; actor: string; order: OrderForRefund; amountMinor: bigint },
  data: Omit<MintData, "askedBy" | "limitAmountMinor" | "shopifyOutcome" | "sentAt">,
  now: Date,
): Promise<Locked<Minted>> {
  const shopCurrency = ask.order.currencyCode;
  const { actor } = ask;
  const limits = await readLimits(db, ask.shop, shopCurrency);
  const shopMinor = amountInShopCurrency(ask.order, ask.amountMinor);
  const counting = countsWhatLeft(limits, actor);
  const mint = async (): Promise<Minted> => {
    const recent = counting ? await recentRefunds(db, ask.shop, actor, shopCurrency, now) : NOTHING_LEFT;
    const breaches: Breach[] =
      shopMinor === undefined && hasAnyLimit(limits)
        ? [{ kind: "no_rate", shopCurrency }]
        : limitBreaches(limits, actor, shopCurrency, shopMinor ?? 0n, recent);
    const record = await mintAttempt(
      db,
      { ...data, askedBy: actor, limitAmountMinor: shopMinor ?? null, ...(breaches.length ? { shopifyOutcome: "held" } : { sentAt: now }) },
      now,
    );
    if (!record || !breaches.length) return { record };
    const request = await askForApproval(
      db,
      { shop: ask.shop, recordId: record.id, askedBy: actor, breaches, limitsRevision: limits.revision, orderRefundedMinor: refundedMinor(ask.order) },
      now,
    );
    return { record, approval: { request, breaches, message: `${record.sysId} is waiting for approval. ${breachesSentence(breaches)}` } };
  };
  if (!counting) return { locked: true, value: await mint() };
  return withLock(db, shopLimitsLock(ask.shop), mint, REFUND_LOCK_TIMES);
}

async function mintAttempt(...args: Parameters<typeof mintRecord>): Promise<RefundRecord | null> {
  try {
    return await mintRecord(...args);
  } catch (error) {
    if (error instanceof AttemptLimitReached) return null;
    throw error;
  }
}
