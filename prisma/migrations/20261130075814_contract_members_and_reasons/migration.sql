-- CreateTable
CREATE TABLE "OperationReason" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "operationId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "class" TEXT,
    CONSTRAINT "OperationReason_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Operation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "refundGid" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT,
    "origin" TEXT NOT NULL,
    "contractId" TEXT NOT NULL,
    "contractVersion" TEXT NOT NULL,
    "contractHash" TEXT NOT NULL,
    "contractDeclaredHash" TEXT NOT NULL,
    "amount" TEXT,
    "currency" TEXT,
    "amountMinor" BIGINT,
    "shopAmount" TEXT,
    "shopCurrency" TEXT,
    "startedAt" DATETIME NOT NULL,
    "actionResult" TEXT,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "reason" TEXT,
    "reasons" TEXT NOT NULL DEFAULT '[]',
    "classes" TEXT NOT NULL DEFAULT '[]',
    "escalate" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "readFailures" INTEGER NOT NULL DEFAULT 0,
    "nextDueAt" DATETIME,
    "claimedBy" TEXT,
    "claimedUntil" DATETIME,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "decidedAt" DATETIME,
    "reviewState" TEXT NOT NULL DEFAULT 'none',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "correlation" TEXT NOT NULL DEFAULT 'resource_id',
    "apiVersionsOutside" TEXT,
    "provisionalVerdict" TEXT
);
INSERT INTO "new_Operation" ("actionResult", "amount", "amountMinor", "attempts", "claimedBy", "claimedUntil", "classes", "contractDeclaredHash", "contractHash", "contractId", "contractVersion", "createdAt", "currency", "decidedAt", "escalate", "id", "nextDueAt", "orderGid", "orderName", "origin", "readFailures", "reason", "reasons", "refundGid", "reviewState", "revision", "shop", "shopAmount", "shopCurrency", "startedAt", "status", "updatedAt") SELECT "actionResult", "amount", "amountMinor", "attempts", "claimedBy", "claimedUntil", "classes", "contractDeclaredHash", "contractHash", "contractId", "contractVersion", "createdAt", "currency", "decidedAt", "escalate", "id", "nextDueAt", "orderGid", "orderName", "origin", "readFailures", "reason", "reasons", "refundGid", "reviewState", "revision", "shop", "shopAmount", "shopCurrency", "startedAt", "status", "updatedAt" FROM "Operation";
DROP TABLE "Operation";
ALTER TABLE "new_Operation" RENAME TO "Operation";
CREATE INDEX "Operation_status_nextDueAt_idx" ON "Operation"("status", "nextDueAt");
CREATE INDEX "Operation_shop_orderGid_idx" ON "Operation"("shop", "orderGid");
CREATE INDEX "Operation_shop_startedAt_id_idx" ON "Operation"("shop", "startedAt", "id");
CREATE INDEX "Operation_shop_status_startedAt_id_idx" ON "Operation"("shop", "status", "startedAt", "id");
CREATE INDEX "Operation_shop_reviewState_decidedAt_idx" ON "Operation"("shop", "reviewState", "decidedAt");
CREATE UNIQUE INDEX "Operation_shop_refundGid_key" ON "Operation"("shop", "refundGid");
CREATE TABLE "new_RefundRecord" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "sysId" TEXT NOT NULL,
    "sysNumber" INTEGER NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'Refund',
    "caption" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "orderId" TEXT NOT NULL,
    "attemptNumber" INTEGER NOT NULL DEFAULT 0,
    "parentId" TEXT,
    "returnId" TEXT,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "shopAmountMinor" BIGINT,
    "shopCurrency" TEXT,
    "note" TEXT,
    "notify" BOOLEAN NOT NULL DEFAULT false,
    "revisionNum" INTEGER NOT NULL DEFAULT 0,
    "revision" TEXT NOT NULL,
    "refundRef" TEXT,
    "failureReason" TEXT,
    "refCaptions" TEXT NOT NULL DEFAULT '[]',
    "refundInput" TEXT,
    "actionResult" TEXT,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "shopifyOutcome" TEXT NOT NULL DEFAULT 'none',
    "outcomeDetail" TEXT,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_RefundRecord" ("actionResult", "amountMinor", "calls", "caption", "createdAt", "currency", "failureReason", "id", "note", "notify", "orderId", "outcomeDetail", "parentId", "refCaptions", "refundInput", "refundRef", "returnId", "revision", "revisionNum", "shop", "shopAmountMinor", "shopCurrency", "shopifyOutcome", "status", "sysId", "sysNumber", "type", "updatedAt") SELECT "actionResult", "amountMinor", "calls", "caption", "createdAt", "currency", "failureReason", "id", "note", "notify", "orderId", "outcomeDetail", "parentId", "refCaptions", "refundInput", "refundRef", "returnId", "revision", "revisionNum", "shop", "shopAmountMinor", "shopCurrency", "shopifyOutcome", "status", "sysId", "sysNumber", "type", "updatedAt" FROM "RefundRecord";
DROP TABLE "RefundRecord";
ALTER TABLE "new_RefundRecord" RENAME TO "RefundRecord";
CREATE INDEX "RefundRecord_shop_orderId_idx" ON "RefundRecord"("shop", "orderId");
CREATE INDEX "RefundRecord_shop_status_idx" ON "RefundRecord"("shop", "status");
CREATE UNIQUE INDEX "RefundRecord_shop_sysNumber_key" ON "RefundRecord"("shop", "sysNumber");
-- Attempt numbers for records minted before the database enforced the bound: their order on the order.
UPDATE "RefundRecord" SET "attemptNumber" = (
  SELECT COUNT(*) FROM "RefundRecord" AS earlier
  WHERE earlier."shop" = "RefundRecord"."shop" AND earlier."orderId" = "RefundRecord"."orderId"
    AND (earlier."createdAt" < "RefundRecord"."createdAt" OR (earlier."createdAt" = "RefundRecord"."createdAt" AND earlier."id" <= "RefundRecord"."id"))
);
CREATE UNIQUE INDEX "RefundRecord_shop_orderId_attemptNumber_key" ON "RefundRecord"("shop", "orderId", "attemptNumber");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "OperationReason_operationId_idx" ON "OperationReason"("operationId");

-- CreateIndex
CREATE INDEX "OperationReason_shop_reason_idx" ON "OperationReason"("shop", "reason");

-- CreateIndex
CREATE INDEX "OperationReason_shop_class_idx" ON "OperationReason"("shop", "class");


-- Reasons of the verdicts recorded before they were rows (they were a JSON list on the operation).
INSERT INTO "OperationReason" ("id", "operationId", "shop", "reason", "kind", "class")
SELECT lower(hex(randomblob(16))), o."id", o."shop", r.value,
  CASE WHEN r.value = 'transaction_failed' THEN 'rule' ELSE 'contradiction' END,
  CASE r.value WHEN 'refund_on_wrong_order' THEN 'wrong subject' WHEN 'refund_amount_mismatch' THEN 'wrong amount' WHEN 'refund_currency_mismatch' THEN 'wrong amount' WHEN 'refund_predates_operation' THEN 'pre existing state' WHEN 'duplicate_refund_present' THEN 'duplicate side effect' END
FROM "Operation" AS o, json_each(o."reasons") AS r
WHERE o."status" IN ('CONTRADICTED', 'FAILED');
