-- AlterTable
ALTER TABLE "RefundRecord" ADD COLUMN     "intentKey" TEXT;

-- CreateTable
CREATE TABLE "OrderRefundClaim" (
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderRefundClaim_pkey" PRIMARY KEY ("shop","orderId")
);

-- CreateTable
CREATE TABLE "ComplianceDelivery" (
    "webhookId" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,
    "outcome" TEXT NOT NULL,

    CONSTRAINT "ComplianceDelivery_pkey" PRIMARY KEY ("webhookId")
);

-- CreateIndex
CREATE UNIQUE INDEX "RefundRecord_shop_intentKey_key" ON "RefundRecord"("shop", "intentKey");

