-- AlterTable
ALTER TABLE "Exposure" ADD COLUMN     "proofAddedAt" TIMESTAMP(3),
ADD COLUMN     "proofAnswer" TEXT,
ADD COLUMN     "proofSentAt" TIMESTAMP(3),
ADD COLUMN     "proofSentTo" TEXT;

