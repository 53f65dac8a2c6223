-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "staffUserId" TEXT;

-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN "limitsCheckedUntil" DATETIME;

-- AlterTable
ALTER TABLE "RefundRecord" ADD COLUMN "askedBy" TEXT;
ALTER TABLE "RefundRecord" ADD COLUMN "limitAmountMinor" BIGINT;
ALTER TABLE "RefundRecord" ADD COLUMN "sentAt" DATETIME;

-- CreateTable
CREATE TABLE "RefundLimits" (
    "shop" TEXT NOT NULL PRIMARY KEY,
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
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "RefundApproval" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "recordId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'waiting',
    "askedBy" TEXT NOT NULL,
    "askedAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "limits" TEXT NOT NULL,
    "limitsRevision" INTEGER NOT NULL,
    "orderRefundedMinor" BIGINT NOT NULL,
    "decidedBy" TEXT,
    "decidedAt" DATETIME,
    "decisionNote" TEXT,
    "decidedLimits" TEXT,
    "askNotifiedAt" DATETIME,
    "decisionNotifiedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "LimitBreach" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "staffUserId" TEXT,
    "limits" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "LimitBreach_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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

