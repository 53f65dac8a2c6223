-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "OrderRefundClaim";
PRAGMA foreign_keys=on;

-- CreateTable
CREATE TABLE "Lock" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "until" DATETIME NOT NULL
);

