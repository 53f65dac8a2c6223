-- AlterTable
ALTER TABLE "RefundRecord" ADD COLUMN     "confirmedAnother" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "confirmedBy" TEXT;

