-- DropTable
DROP TABLE "OrderRefundClaim";

-- CreateTable
CREATE TABLE "Lock" (
    "key" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lock_pkey" PRIMARY KEY ("key")
);

