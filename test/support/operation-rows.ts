import type { PrismaClient } from "@prisma/client";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createPrismaClient } from "../../app/lib/db/client";
import { createTestDatabase } from "./database";
import { REFUND_CREATED } from "../../app/contracts/registry.server";

/**
 * Pending operations written straight to the database, due at `nextDueAt`, for the tests of the
 * claims and the work runner: each call numbers its refunds on from the last.
 */
export function operationRows(db: PrismaClient, startedAt: Date) {
  let made = 0;
  return async function operations(count: number, nextDueAt: Date, shop: string): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const n = made++;
      const op = await db.operation.create({
        data: {
          shop,
          refundGid: `gid://shopify/Refund/${n}`,
          orderGid: `gid://shopify/Order/${n}`,
          origin: "webhook",
          amount: "10.00",
          currency: "EUR",
          contractId: REFUND_CREATED.contract.id,
          contractVersion: REFUND_CREATED.contract.version,
          contractHash: REFUND_CREATED.computedHash,
          contractDeclaredHash: REFUND_CREATED.declaredHash,
          startedAt,
          nextDueAt,
        },
      });
      ids.push(op.id);
    }
    return ids;
  };
}

/**
 * A database of its own for one test file of the job library, handed to `started` (a client and its
 * URL, for a second connection) before its tests
 * and dropped after them. Each test starts with nothing due: what one left is parked.
 */
export function useQueueDatabase(started: (db: PrismaClient, url: string) => void) {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let db: PrismaClient | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPrismaClient(database.url);
    started(db, database.url);
  });
  afterEach(async () => {
    await db?.operation.updateMany({ data: { nextDueAt: null, claimedBy: null, claimedUntil: null } });
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });
}
