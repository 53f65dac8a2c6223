-- AlterTable
ALTER TABLE "RefundRecord" ADD COLUMN "intentKey" TEXT;

-- CreateTable
CREATE TABLE "OrderRefundClaim" (
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "until" DATETIME NOT NULL,

    PRIMARY KEY ("shop", "orderId")
);

-- CreateTable
CREATE TABLE "ComplianceDelivery" (
    "webhookId" TEXT NOT NULL PRIMARY KEY,
    "topic" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "outcome" TEXT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "RefundRecord_shop_intentKey_key" ON "RefundRecord"("shop", "intentKey");

