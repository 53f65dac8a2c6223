-- AlterTable
ALTER TABLE "Operation" ADD COLUMN "shopAmount" TEXT;
ALTER TABLE "Operation" ADD COLUMN "shopCurrency" TEXT;

-- AlterTable
ALTER TABLE "Observation" ADD COLUMN "apiVersion" TEXT;

-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN "sweepCompletedAt" DATETIME;
ALTER TABLE "ShopState" ADD COLUMN "sweepCursor" TEXT;
ALTER TABLE "ShopState" ADD COLUMN "sweepSince" DATETIME;
ALTER TABLE "ShopState" ADD COLUMN "sweepStartedAt" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RefundRecord" (
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
INSERT INTO "new_RefundRecord" ("actionResult", "amountMinor", "calls", "caption", "createdAt", "currency", "failureReason", "id", "note", "notify", "orderId", "parentId", "refCaptions", "refundRef", "returnId", "revision", "revisionNum", "shop", "status", "sysId", "sysNumber", "type", "updatedAt") SELECT "actionResult", "amountMinor", "calls", "caption", "createdAt", "currency", "failureReason", "id", "note", "notify", "orderId", "parentId", "refCaptions", "refundRef", "returnId", "revision", "revisionNum", "shop", "status", "sysId", "sysNumber", "type", "updatedAt" FROM "RefundRecord";
DROP TABLE "RefundRecord";
ALTER TABLE "new_RefundRecord" RENAME TO "RefundRecord";
CREATE INDEX "RefundRecord_shop_orderId_idx" ON "RefundRecord"("shop", "orderId");
CREATE INDEX "RefundRecord_shop_status_idx" ON "RefundRecord"("shop", "status");
CREATE UNIQUE INDEX "RefundRecord_shop_sysNumber_key" ON "RefundRecord"("shop", "sysNumber");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Records issued before idempotency keys: what Shopify said to them, from what they show.
UPDATE "RefundRecord" SET "shopifyOutcome" = 'created' WHERE "refundRef" IS NOT NULL;
UPDATE "RefundRecord" SET "shopifyOutcome" = 'refused' WHERE "refundRef" IS NULL AND "status" = 'failed';
UPDATE "RefundRecord" SET "shopifyOutcome" = 'unknown' WHERE "refundRef" IS NULL AND "status" = 'created' AND "calls" > 0;
