import type { PrismaClient } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";

/**
 * How long a claim holds when its holder dies mid-issue. An issue is one read of the order and at
 * most three refundCreate calls (0.5 s and 1.5 s apart), each bounded by the request timeout (10 s):
 * well under a minute. Past this, the order is open again; a record the dead holder minted still
 * blocks it as unsettled until it is settled.
 */
export const ORDER_CLAIM_MS = 120_000;
/** How long a request waits for another holder of the order to finish before it gives up. */
export const ORDER_CLAIM_WAIT_MS = 20_000;
const POLL_MS = 100;

/**
 * Takes the order's claim for `holder`: one insert, which the primary key (shop, order) lets only
 * one request win, in any process, on either database. An expired claim is removed first (by a
 * guarded delete: only while it is still expired).
 */
export async function claimOrder(db: PrismaClient, shop: string, orderId: string, holder: string, now: Date): Promise<boolean> {
  await db.orderRefundClaim.deleteMany({ where: { shop, orderId, until: { lt: now } } });
  return createOnce(() => db.orderRefundClaim.create({ data: { shop, orderId, holder, until: new Date(now.getTime() + ORDER_CLAIM_MS) } }));
}

/** Lets the order go, if this holder still has it. */
export async function releaseOrder(db: PrismaClient, shop: string, orderId: string, holder: string): Promise<void> {
  await db.orderRefundClaim.deleteMany({ where: { shop, orderId, holder } });
}

export type Claimed<T> = { claimed: true; value: T } | { claimed: false };

/**
 * Runs `work` holding the order's claim, waiting (up to ORDER_CLAIM_WAIT_MS) while another request
 * holds it: a double click's second request runs after the first has its answer, and sees it.
 */
export async function withOrderClaim<T>(
  db: PrismaClient,
  claim: { shop: string; orderId: string; holder: string },
  work: () => Promise<T>,
  clock: () => Date = () => new Date(),
): Promise<Claimed<T>> {
  const deadline = clock().getTime() + ORDER_CLAIM_WAIT_MS;
  while (!(await claimOrder(db, claim.shop, claim.orderId, claim.holder, clock()))) {
    if (clock().getTime() > deadline) return { claimed: false };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return { claimed: true, value: await work() };
  } finally {
    await releaseOrder(db, claim.shop, claim.orderId, claim.holder);
  }
}
