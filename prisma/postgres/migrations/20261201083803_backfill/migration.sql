-- CreateTable
CREATE TABLE "Backfill" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "activeShop" TEXT,
    "requestedBy" TEXT NOT NULL,
    "days" INTEGER NOT NULL,
    "since" TIMESTAMP(3) NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "bulkOperationGid" TEXT,
    "bulkRuns" INTEGER NOT NULL DEFAULT 0,
    "objectCount" INTEGER NOT NULL DEFAULT 0,
    "readAt" TIMESTAMP(3),
    "linesRead" INTEGER NOT NULL DEFAULT 0,
    "badLines" INTEGER NOT NULL DEFAULT 0,
    "refundsFound" INTEGER NOT NULL DEFAULT 0,
    "refundsVerified" INTEGER NOT NULL DEFAULT 0,
    "verifyCursor" TEXT,
    "message" TEXT,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "summary" TEXT,
    "nextDueAt" TIMESTAMP(3),
    "claimedBy" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "revision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Backfill_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BackfillLine" (
    "id" TEXT NOT NULL,
    "backfillId" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "agreementGid" TEXT NOT NULL,
    "orderGid" TEXT,
    "refundGid" TEXT,
    "createdAt" TIMESTAMP(3),
    "data" TEXT NOT NULL,

    CONSTRAINT "BackfillLine_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "BackfillLine" ADD CONSTRAINT "BackfillLine_backfillId_fkey" FOREIGN KEY ("backfillId") REFERENCES "Backfill"("id") ON DELETE CASCADE ON UPDATE CASCADE;

