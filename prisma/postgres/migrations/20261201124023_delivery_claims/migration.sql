-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "claimedBy" TEXT,
ADD COLUMN     "claimedUntil" TIMESTAMP(3);

