-- CreateTable
CREATE TABLE "Backfill" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "activeShop" TEXT,
    "requestedBy" TEXT NOT NULL,
    "days" INTEGER NOT NULL,
    "since" DATETIME NOT NULL,
    "until" DATETIME NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "bulkOperationGid" TEXT,
    "bulkRuns" INTEGER NOT NULL DEFAULT 0,
    "objectCount" INTEGER NOT NULL DEFAULT 0,
    "readAt" DATETIME,
    "linesRead" INTEGER NOT NULL DEFAULT 0,
    "badLines" INTEGER NOT NULL DEFAULT 0,
    "refundsFound" INTEGER NOT NULL DEFAULT 0,
    "refundsVerified" INTEGER NOT NULL DEFAULT 0,
    "verifyCursor" TEXT,
    "message" TEXT,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "summary" TEXT,
    "nextDueAt" DATETIME,
    "claimedBy" TEXT,
    "claimedUntil" DATETIME,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "BackfillLine" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "backfillId" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "agreementGid" TEXT NOT NULL,
    "orderGid" TEXT,
    "refundGid" TEXT,
    "createdAt" DATETIME,
    "data" TEXT NOT NULL,
    CONSTRAINT "BackfillLine_backfillId_fkey" FOREIGN KEY ("backfillId") REFERENCES "Backfill" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Backfill_activeShop_key" ON "Backfill"("activeShop");

-- CreateIndex
CREATE INDEX "Backfill_shop_createdAt_idx" ON "Backfill"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "Backfill_state_nextDueAt_idx" ON "Backfill"("state", "nextDueAt");

-- CreateIndex
CREATE INDEX "BackfillLine_backfillId_kind_orderGid_line_idx" ON "BackfillLine"("backfillId", "kind", "orderGid", "line");

-- CreateIndex
CREATE INDEX "BackfillLine_backfillId_agreementGid_idx" ON "BackfillLine"("backfillId", "agreementGid");

-- CreateIndex
CREATE UNIQUE INDEX "BackfillLine_backfillId_line_key" ON "BackfillLine"("backfillId", "line");

