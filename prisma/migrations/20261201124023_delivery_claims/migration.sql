-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "claimedBy" TEXT;
ALTER TABLE "WebhookDelivery" ADD COLUMN "claimedUntil" DATETIME;

