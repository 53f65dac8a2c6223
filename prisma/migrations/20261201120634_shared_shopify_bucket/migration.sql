-- CreateTable
CREATE TABLE "ShopifyBucket" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "available" REAL NOT NULL,
    "maximum" REAL NOT NULL,
    "restoreRate" REAL NOT NULL,
    "atMs" REAL NOT NULL
);

