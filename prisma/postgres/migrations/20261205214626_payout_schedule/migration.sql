-- AlterTable
ALTER TABLE "ShopState" ADD COLUMN     "payoutSchedule" TEXT;

