-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN     "paymentsAccount" TEXT,
ADD COLUMN     "paymentsCheckedAt" TIMESTAMP(3),
ADD COLUMN     "settlementsOpenedUntil" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "Settlement" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "refundGid" TEXT NOT NULL,
    "contractId" TEXT NOT NULL,
    "contractVersion" TEXT NOT NULL,
    "contractHash" TEXT NOT NULL,
    "contractDeclaredHash" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
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
    "processedAt" TIMESTAMP(3),
    "amount" TEXT,
    "currency" TEXT,
    "observed" TEXT,
    "result" TEXT,
    "observedAt" TIMESTAMP(3),
    "nextDueAt" TIMESTAMP(3),
    "claimedBy" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "revision" INTEGER NOT NULL DEFAULT 0,
    "decidedAt" TIMESTAMP(3),
    "alertedVerdict" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Settlement_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Settlement_operationId_key" ON "Settlement"("operationId");

-- CreateIndex
CREATE INDEX "Settlement_nextDueAt_idx" ON "Settlement"("nextDueAt");

-- CreateIndex
CREATE INDEX "Settlement_shop_money_startedAt_idx" ON "Settlement"("shop", "money", "startedAt");

-- CreateIndex
CREATE INDEX "Settlement_shop_status_idx" ON "Settlement"("shop", "status");

-- AddForeignKey
ALTER TABLE "Settlement" ADD CONSTRAINT "Settlement_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

