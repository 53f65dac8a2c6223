import type { Prisma, PrismaClient } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";
import { leaseMs } from "../work/claims.server";
import type { FollowUp, VerifiedRefund } from "./follow-up";

/** Verified refunds given their row a shop and pass: the rest wait for the next pass. */
const OPEN_BATCH = 200;

/**
 * Gives every refund of the shop VERIFIED since the follow-up's cursor (and within its contract's
 * timeout) its row, once: live, history and issued-in-the-app refunds alike, since each is an
 * Operation. Returns how many it opened. A refund verified longer ago than the timeout is not
 * opened: it would end unread at its first look (a shop granting the payments scopes today, or a
 * chargeback window long closed).
 */
export async function openFollowUps(followUp: FollowUp, db: PrismaClient, shop: string, now: Date): Promise<number> {
  const { contract } = followUp.contract;
  const state = await db.shopState.findUnique({ where: { shop }, select: { settlementsOpenedUntil: true, exposuresOpenedUntil: true } });
  const oldest = now.getTime() - contract.timing.timeout_ms;
  // From a lease before the cursor: a worker whose batch of verdicts was stamped earlier may commit
  // it after another's later one moved the cursor (the relation filter skips what was opened).
  const since = new Date(Math.max((state?.[followUp.cursor]?.getTime() ?? 0) - leaseMs(), oldest));
  const verified: VerifiedRefund[] = await db.operation.findMany({
    // `gte` and no row yet: a pass decides hundreds of refunds at one instant, so a batch may end
    // inside it, and the next starts there again without what this one opened.
    where: { shop, status: "VERIFIED", decidedAt: { gte: since }, [followUp.relation]: { is: null } } as Prisma.OperationWhereInput,
    orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
    take: OPEN_BATCH,
    select: { id: true, refundGid: true, orderGid: true, decidedAt: true, ...followUp.reads },
  });
  let opened = 0;
  for (const refund of verified) {
    const row = {
      shop,
      operationId: refund.id,
      refundGid: refund.refundGid,
      contractId: contract.id,
      contractVersion: contract.version,
      contractHash: followUp.contract.computedHash,
      contractDeclaredHash: followUp.contract.declaredHash,
      startedAt: refund.decidedAt ?? now,
    };
    if (await createOnce(() => followUp.open(db, row, refund, now))) opened++;
  }
  const last = verified.at(-1)?.decidedAt;
  if (last && last.getTime() !== since.getTime()) {
    const moved = { [followUp.cursor]: last };
    await db.shopState.upsert({ where: { shop }, create: { shop, ...moved }, update: moved });
  }
  return opened;
}
