-- CreateTable
CREATE TABLE "ShopifyBucket" (
    "shop" TEXT NOT NULL,
    "available" DOUBLE PRECISION NOT NULL,
    "maximum" DOUBLE PRECISION NOT NULL,
    "restoreRate" DOUBLE PRECISION NOT NULL,
    "atMs" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "ShopifyBucket_pkey" PRIMARY KEY ("shop")
);

