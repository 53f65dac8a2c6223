import type { PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { createOnce } from "../lib/db/create-once";
import { leaseMs } from "../work/claims.server";

/** Verified refunds given their Exposure a shop and pass: the rest wait for the next pass. */
export const OPEN_BATCH = 200;

/**
 * Gives every refund VERIFIED since the shop's cursor (and within the chargeback window) its
 * Exposure, once, due at once: live, history and issued-in-the-app refunds alike, since each is
 * an Operation. Returns how many it opened.
 */
export async function openExposures(db: PrismaClient, loaded: LoadedContract, shop: string, now: Date): Promise<number> {
  const state = await db.shopState.findUnique({ where: { shop }, select: { exposuresOpenedUntil: true } });
  // A refund verified before the window closed is not opened: no dispute can come for it now.
  const oldest = now.getTime() - loaded.contract.timing.timeout_ms;
  // From a lease before the cursor: a batch of verdicts stamped earlier may commit after a later one moved it.
  const since = new Date(Math.max((state?.exposuresOpenedUntil?.getTime() ?? 0) - leaseMs(), oldest));
  const verified = await db.operation.findMany({
    where: { shop, status: "VERIFIED", decidedAt: { gte: since }, exposure: { is: null } },
    orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
    take: OPEN_BATCH,
    select: { id: true, refundGid: true, orderGid: true, decidedAt: true },
  });
  const { contract } = loaded;
  let opened = 0;
  for (const op of verified) {
    const startedAt = op.decidedAt ?? now;
    const created = await createOnce(() =>
      db.exposure.create({
        data: {
          shop,
          operationId: op.id,
          refundGid: op.refundGid,
          orderGid: op.orderGid,
          contractId: contract.id,
          contractVersion: contract.version,
          contractHash: loaded.computedHash,
          contractDeclaredHash: loaded.declaredHash,
          startedAt,
          nextDueAt: now,
        },
      }),
    );
    if (created) opened++;
  }
  const last = verified.at(-1)?.decidedAt;
  if (last && last.getTime() !== since.getTime())
    await db.shopState.upsert({ where: { shop }, create: { shop, exposuresOpenedUntil: last }, update: { exposuresOpenedUntil: last } });
  return opened;
}

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
