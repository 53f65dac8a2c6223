import type { PrismaClient } from "@prisma/client";
import { writeInSlices } from "../lib/db/slices";

/**
 * Verified refunds that still need a person go on the review queue, as a verdict that needs a
 * person does (their created verdict stays VERIFIED: Shopify recorded them as asked): money at
 * risk twice (decision 028), a refund made outside the app over one of the shop's limits
 * (decision 030). One a person resolved comes back when it needs them again (a chargeback opened,
 * then lost).
 */
export async function putOnReviewQueue(db: PrismaClient, operationIds: string[]): Promise<void> {
  await writeInSlices(operationIds, (slice) =>
    db.operation.updateMany({
      where: { id: { in: slice }, status: "VERIFIED", reviewState: { not: "open" } },
      data: { reviewState: "open", revision: { increment: 1 } },
    }),
  );
}
