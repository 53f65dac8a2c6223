-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "shopAmount" TEXT,
ADD COLUMN     "shopCurrency" TEXT;

-- AlterTable
ALTER TABLE "Observation" ADD COLUMN     "apiVersion" TEXT;

-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN     "sweepCompletedAt" TIMESTAMP(3),
ADD COLUMN     "sweepCursor" TEXT,
ADD COLUMN     "sweepSince" TIMESTAMP(3),
ADD COLUMN     "sweepStartedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "RefundRecord" ADD COLUMN     "outcomeDetail" TEXT,
ADD COLUMN     "refundInput" TEXT,
ADD COLUMN     "shopAmountMinor" BIGINT,
ADD COLUMN     "shopCurrency" TEXT,
ADD COLUMN     "shopifyOutcome" TEXT NOT NULL DEFAULT 'none';


-- Records issued before idempotency keys: what Shopify said to them, from what they show.
UPDATE "RefundRecord" SET "shopifyOutcome" = 'created' WHERE "refundRef" IS NOT NULL;
UPDATE "RefundRecord" SET "shopifyOutcome" = 'refused' WHERE "refundRef" IS NULL AND "status" = 'failed';
UPDATE "RefundRecord" SET "shopifyOutcome" = 'unknown' WHERE "refundRef" IS NULL AND "status" = 'created' AND "calls" > 0;
