-- AlterTable
ALTER TABLE "RefundRecord" ADD COLUMN "confirmedAnother" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "RefundRecord" ADD COLUMN "confirmedBy" TEXT;
