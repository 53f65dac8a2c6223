-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN "ianaTimezone" TEXT;
ALTER TABLE "ShopState" ADD COLUMN "shopCurrency" TEXT;

