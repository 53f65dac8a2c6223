-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "staffUserId" TEXT;

-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN     "limitsCheckedUntil" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "RefundRecord" ADD COLUMN     "askedBy" TEXT,
ADD COLUMN     "limitAmountMinor" BIGINT,
ADD COLUMN     "sentAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "RefundLimits" (
    "shop" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "perRefundMinor" BIGINT,
    "dailyPerStaffMinor" BIGINT,
    "shopHourlyCount" INTEGER,
    "shopHourlyMinor" BIGINT,
    "shopDailyCount" INTEGER,
    "shopDailyMinor" BIGINT,
    "people" TEXT NOT NULL DEFAULT '[]',
    "revision" INTEGER NOT NULL DEFAULT 0,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RefundLimits_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "RefundApproval" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "recordId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'waiting',
    "askedBy" TEXT NOT NULL,
    "askedAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "limits" TEXT NOT NULL,
    "limitsRevision" INTEGER NOT NULL,
    "orderRefundedMinor" BIGINT NOT NULL,
    "decidedBy" TEXT,
    "decidedAt" TIMESTAMP(3),
    "decisionNote" TEXT,
    "decidedLimits" TEXT,
    "askNotifiedAt" TIMESTAMP(3),
    "decisionNotifiedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RefundApproval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LimitBreach" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "staffUserId" TEXT,
    "limits" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LimitBreach_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RefundApproval_recordId_key" ON "RefundApproval"("recordId");

-- CreateIndex
CREATE INDEX "RefundApproval_shop_state_askedAt_idx" ON "RefundApproval"("shop", "state", "askedAt");

-- CreateIndex
CREATE INDEX "RefundApproval_state_expiresAt_idx" ON "RefundApproval"("state", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "LimitBreach_operationId_key" ON "LimitBreach"("operationId");

-- CreateIndex
CREATE INDEX "LimitBreach_shop_createdAt_idx" ON "LimitBreach"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "RefundRecord_shop_sentAt_idx" ON "RefundRecord"("shop", "sentAt");

-- AddForeignKey
ALTER TABLE "LimitBreach" ADD CONSTRAINT "LimitBreach_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

