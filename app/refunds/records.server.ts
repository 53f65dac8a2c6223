import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient, RefundRecord } from "@prisma/client";
import { parseStored, storedCaptions } from "../lib/db/stored-json";

export class RevisionConflict extends Error {
  constructor() {
    super("This refund record changed since it was read (stale revision token).");
  }
}

/** Every write to a record checks the revision token it read and rotates it: OCC, no lost update. */
export async function updateRecord(
  db: PrismaClient,
  record: Pick<RefundRecord, "id" | "revision">,
  data: Prisma.RefundRecordUpdateManyMutationInput,
  now: Date,
): Promise<string> {
  const revision = randomUUID();
  const { count } = await db.refundRecord.updateMany({
    where: { id: record.id, revision: record.revision },
    data: { ...data, revision, revisionNum: { increment: 1 }, updatedAt: now },
  });
  if (count !== 1) throw new RevisionConflict();
  return revision;
}

/** updateRecord, then the record as it now is. */
export async function rewriteRecord(
  db: PrismaClient,
  record: RefundRecord,
  data: Prisma.RefundRecordUpdateManyMutationInput,
  now: Date,
): Promise<RefundRecord> {
  await updateRecord(db, record, data, now);
  return db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
}

export const formatSysId = (n: number) => `RF-${String(n).padStart(6, "0")}`;

/**
 * Outcomes of a record's call that leave its attempt open (a merchant reads "not settled"): Shopify
 * may hold its refund (or is about to be asked for it: `none`, minted and not yet sent), so no other
 * refund is issued on the order, and its stored input must stay as sent.
 */
export const OPEN_OUTCOMES = ["none", "unknown", "key_conflict"];
export const isOpenAttempt = (record: Pick<RefundRecord, "shopifyOutcome">) => OPEN_OUTCOMES.includes(record.shopifyOutcome);

/** The seed's bound: at most 64 refund attempts on one order. */
export const MAX_ATTEMPTS_PER_ORDER = 64;

export class AttemptLimitReached extends Error {
  constructor() {
    super(`This order already has ${MAX_ATTEMPTS_PER_ORDER} refund attempts, the most the app allows on one order.`);
  }
}

/**
 * Mints a record in status created, with the shop's next RF- number and the order's next attempt
 * slot. Both are unique in the database, so two mints at once cannot take the same number or the
 * same slot: the loser retries with the next one, and past slot 64 there is none.
 */
export async function mintRecord(
  db: PrismaClient,
  data: Omit<Prisma.RefundRecordUncheckedCreateInput, "id" | "sysId" | "sysNumber" | "attemptNumber" | "revision" | "createdAt" | "updatedAt" | "status">,
  now: Date,
): Promise<RefundRecord> {
  for (let attempt = 0; ; attempt++) {
    const [last, lastOnOrder] = await Promise.all([
      db.refundRecord.findFirst({ where: { shop: data.shop }, orderBy: { sysNumber: "desc" }, select: { sysNumber: true } }),
      db.refundRecord.findFirst({ where: { shop: data.shop, orderId: data.orderId }, orderBy: { attemptNumber: "desc" }, select: { attemptNumber: true } }),
    ]);
    const attemptNumber = (lastOnOrder?.attemptNumber ?? 0) + 1;
    if (attemptNumber > MAX_ATTEMPTS_PER_ORDER) throw new AttemptLimitReached();
    const sysNumber = (last?.sysNumber ?? 0) + 1;
    try {
      return await db.refundRecord.create({
        data: {
          ...data,
          id: randomUUID(),
          sysNumber,
          sysId: formatSysId(sysNumber),
          attemptNumber,
          status: "created",
          revision: randomUUID(),
          createdAt: now,
          updatedAt: now,
        },
      });
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002" || attempt >= 20) throw error;
    }
  }
}

/** The read-only view support tooling gets: the record's fields, money as minor units with the currency. */
export function recordView(record: RefundRecord, verdict: { status: string; reason: string | null } | null) {
  return {
    id: record.id,
    sysId: record.sysId,
    type: record.type,
    caption: record.caption,
    status: record.status,
    orderId: record.orderId,
    parentId: record.parentId,
    returnId: record.returnId,
    // An integer on the wire, as the seed's record has it (minor units stay far below 2^53).
    amountMinor: Number(record.amountMinor),
    currency: record.currency,
    shopAmountMinor: record.shopAmountMinor === null ? null : Number(record.shopAmountMinor),
    shopCurrency: record.shopCurrency,
    note: record.note,
    notify: record.notify,
    revisionNum: record.revisionNum,
    revision: record.revision,
    refundRef: record.refundRef,
    failureReason: record.failureReason,
    refCaptions: parseStored(storedCaptions, record.refCaptions, "RefundRecord.refCaptions"),
    attemptNumber: record.attemptNumber,
    calls: record.calls,
    idempotencyKey: record.id,
    shopifyOutcome: record.shopifyOutcome,
    outcomeDetail: record.outcomeDetail,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    verdict,
  };
}
