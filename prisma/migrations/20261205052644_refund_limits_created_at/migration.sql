-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RefundLimits" (
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
    "updatedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_RefundLimits" ("currency", "dailyPerStaffMinor", "people", "perRefundMinor", "revision", "shop", "shopDailyCount", "shopDailyMinor", "shopHourlyCount", "shopHourlyMinor", "updatedAt", "updatedBy") SELECT "currency", "dailyPerStaffMinor", "people", "perRefundMinor", "revision", "shop", "shopDailyCount", "shopDailyMinor", "shopHourlyCount", "shopHourlyMinor", "updatedAt", "updatedBy" FROM "RefundLimits";
DROP TABLE "RefundLimits";
ALTER TABLE "new_RefundLimits" RENAME TO "RefundLimits";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

