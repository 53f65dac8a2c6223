-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN     "ianaTimezone" TEXT,
ADD COLUMN     "shopCurrency" TEXT;

