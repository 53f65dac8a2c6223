-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ShopifyBucket" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "available" REAL NOT NULL,
    "maximum" REAL NOT NULL,
    "restoreRate" REAL NOT NULL,
    "atMs" REAL NOT NULL,
    "pending" REAL NOT NULL DEFAULT 0,
    "pendingAtMs" REAL NOT NULL DEFAULT 0
);
INSERT INTO "new_ShopifyBucket" ("atMs", "available", "maximum", "restoreRate", "shop") SELECT "atMs", "available", "maximum", "restoreRate", "shop" FROM "ShopifyBucket";
DROP TABLE "ShopifyBucket";
ALTER TABLE "new_ShopifyBucket" RENAME TO "ShopifyBucket";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

