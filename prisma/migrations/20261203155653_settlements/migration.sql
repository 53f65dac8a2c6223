-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN "paymentsAccount" TEXT;
ALTER TABLE "ShopState" ADD COLUMN "paymentsCheckedAt" DATETIME;
ALTER TABLE "ShopState" ADD COLUMN "settlementsOpenedUntil" DATETIME;

-- CreateTable
CREATE TABLE "Settlement" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "refundGid" TEXT NOT NULL,
    "contractId" TEXT NOT NULL,
    "contractVersion" TEXT NOT NULL,
    "contractHash" TEXT NOT NULL,
    "contractDeclaredHash" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "money" TEXT NOT NULL DEFAULT 'awaiting_ledger',
    "reason" TEXT,
    "reasons" TEXT NOT NULL DEFAULT '[]',
    "classes" TEXT NOT NULL DEFAULT '[]',
    "escalate" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "readFailures" INTEGER NOT NULL DEFAULT 0,
    "transactionGids" TEXT NOT NULL DEFAULT '',
    "arn" TEXT,
    "payoutGid" TEXT,
    "payoutStatus" TEXT,
    "processedAt" DATETIME,
    "amount" TEXT,
    "currency" TEXT,
    "observed" TEXT,
    "result" TEXT,
    "observedAt" DATETIME,
    "nextDueAt" DATETIME,
    "claimedBy" TEXT,
    "claimedUntil" DATETIME,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "decidedAt" DATETIME,
    "alertedVerdict" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Settlement_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Settlement_operationId_key" ON "Settlement"("operationId");

-- CreateIndex
CREATE INDEX "Settlement_nextDueAt_idx" ON "Settlement"("nextDueAt");

-- CreateIndex
CREATE INDEX "Settlement_shop_money_startedAt_idx" ON "Settlement"("shop", "money", "startedAt");

-- CreateIndex
CREATE INDEX "Settlement_shop_status_idx" ON "Settlement"("shop", "status");

