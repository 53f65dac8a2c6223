-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN     "exposuresOpenedUntil" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "Exposure" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "refundGid" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "contractId" TEXT NOT NULL,
    "contractVersion" TEXT NOT NULL,
    "contractHash" TEXT NOT NULL,
    "contractDeclaredHash" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "reason" TEXT,
    "reasons" TEXT NOT NULL DEFAULT '[]',
    "classes" TEXT NOT NULL DEFAULT '[]',
    "escalate" BOOLEAN NOT NULL DEFAULT false,
    "atRisk" TEXT,
    "currency" TEXT,
    "observed" TEXT,
    "result" TEXT,
    "observedAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "readFailures" INTEGER NOT NULL DEFAULT 0,
    "nextDueAt" TIMESTAMP(3),
    "claimedBy" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "revision" INTEGER NOT NULL DEFAULT 0,
    "decidedAt" TIMESTAMP(3),
    "alertedReasons" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Exposure_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Exposure_operationId_key" ON "Exposure"("operationId");

-- CreateIndex
CREATE INDEX "Exposure_nextDueAt_idx" ON "Exposure"("nextDueAt");

-- CreateIndex
CREATE INDEX "Exposure_shop_orderGid_idx" ON "Exposure"("shop", "orderGid");

-- CreateIndex
CREATE INDEX "Exposure_shop_status_startedAt_idx" ON "Exposure"("shop", "status", "startedAt");

-- AddForeignKey
ALTER TABLE "Exposure" ADD CONSTRAINT "Exposure_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

