-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Backfill" (
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
INSERT INTO "new_Backfill" ("activeShop", "badLines", "bulkOperationGid", "bulkRuns", "claimedBy", "claimedUntil", "createdAt", "days", "finishedAt", "id", "linesRead", "message", "nextDueAt", "objectCount", "readAt", "refundsFound", "refundsVerified", "requestedBy", "revision", "shop", "since", "state", "summary", "until", "updatedAt", "verifyCursor") SELECT "activeShop", "badLines", "bulkOperationGid", "bulkRuns", "claimedBy", "claimedUntil", "createdAt", "days", "finishedAt", "id", "linesRead", "message", "nextDueAt", "objectCount", "readAt", "refundsFound", "refundsVerified", "requestedBy", "revision", "shop", "since", "state", "summary", "until", "updatedAt", "verifyCursor" FROM "Backfill";
DROP TABLE "Backfill";
ALTER TABLE "new_Backfill" RENAME TO "Backfill";
CREATE UNIQUE INDEX "Backfill_activeShop_key" ON "Backfill"("activeShop");
CREATE INDEX "Backfill_shop_createdAt_idx" ON "Backfill"("shop", "createdAt");
CREATE INDEX "Backfill_state_nextDueAt_idx" ON "Backfill"("state", "nextDueAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

