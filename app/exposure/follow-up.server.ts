import type { PrismaClient } from "@prisma/client";
import { REFUND_EXPOSURE } from "../contracts/registry.server";
import type { FollowUp, OpenedRow, VerifiedRefund } from "../follow-ups/follow-up";
import { putOnReviewQueue } from "../verification/review-queue.server";
import { judgeExposures } from "./judge.server";

/** Opened due at once: a refund's order is read as soon as the refund is verified. */
function openExposure(db: PrismaClient, row: OpenedRow, refund: VerifiedRefund, now: Date) {
  return db.exposure.create({ data: { ...row, orderGid: refund.orderGid, nextDueAt: now } });
}

/**
 * Money at risk twice (contract shopify.refund.exposure, decision 028): a verified refund's order
 * read again every day until the chargeback window closes, for a chargeback opened or lost, store
 * credit and cash both given back, or more back than was paid. Opened for every installed shop (an
 * uninstall deletes the offline session); shops judged four at a time. A refund newly at risk, or at
 * risk for another reason (a chargeback opened, then lost), goes back on the review queue.
 */
export const EXPOSURE: FollowUp<"exposures"> = {
  name: "exposure",
  queue: "exposures",
  contract: REFUND_EXPOSURE,
  cursor: "exposuresOpenedUntil",
  relation: "exposure",
  shops: async (db) => [...new Set((await db.session.findMany({ where: { isOnline: false }, select: { shop: true } })).map((s) => s.shop))],
  open: openExposure,
  // A shop's orders in a few nodes(ids:) requests, the disputes' details in one.
  judging: { batch: 200, maxShops: 50, concurrency: 4, judge: (rows, helpers, options) => judgeExposures(EXPOSURE, rows, helpers, options) },
  async afterPass(notes, db) {
    const atRisk = notes.flatMap((note) => (typeof note.operation === "string" ? [note.operation] : []));
    if (atRisk.length) await putOnReviewQueue(db, atRisk);
  },
};

/**
 * A disputes/* delivery, or anything else that says an order of the shop may have changed: its
 * refunds' exposures are read at the next pass. Only the header's shop is touched, and only
 * through Shopify's answer to its own token, so a replay costs a read and changes nothing else.
 */
export async function readOrderAgain(db: PrismaClient, shop: string, orderGid: string, now: Date): Promise<number> {
  // The claim is voided (revision bumped): a read taken before the dispute must not push the next one a day away.
  const { count } = await db.exposure.updateMany({
    where: { shop, orderGid },
    data: { nextDueAt: now, claimedBy: null, claimedUntil: null, revision: { increment: 1 } },
  });
  return count;
}
