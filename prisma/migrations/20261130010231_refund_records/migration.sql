-- CreateTable
CREATE TABLE "RefundRecord" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "sysId" TEXT NOT NULL,
    "sysNumber" INTEGER NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'Refund',
    "caption" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "orderId" TEXT NOT NULL,
    "parentId" TEXT,
    "returnId" TEXT,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "note" TEXT,
    "notify" BOOLEAN NOT NULL DEFAULT false,
    "revisionNum" INTEGER NOT NULL DEFAULT 0,
    "revision" TEXT NOT NULL,
    "refundRef" TEXT,
    "failureReason" TEXT,
    "refCaptions" TEXT NOT NULL DEFAULT '[]',
    "actionResult" TEXT,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "RefundRecord_shop_orderId_idx" ON "RefundRecord"("shop", "orderId");

-- CreateIndex
CREATE INDEX "RefundRecord_shop_status_idx" ON "RefundRecord"("shop", "status");

-- CreateIndex
CREATE UNIQUE INDEX "RefundRecord_shop_sysNumber_key" ON "RefundRecord"("shop", "sysNumber");

