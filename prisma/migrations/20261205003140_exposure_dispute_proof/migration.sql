-- AlterTable
ALTER TABLE "Exposure" ADD COLUMN "proofAddedAt" DATETIME;
ALTER TABLE "Exposure" ADD COLUMN "proofAnswer" TEXT;
ALTER TABLE "Exposure" ADD COLUMN "proofSentAt" DATETIME;
ALTER TABLE "Exposure" ADD COLUMN "proofSentTo" TEXT;

