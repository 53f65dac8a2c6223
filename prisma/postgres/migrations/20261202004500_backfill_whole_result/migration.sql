-- AlterTable
ALTER TABLE "Backfill" ADD COLUMN     "bytesRead" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Backfill" ADD COLUMN     "withoutTransactions" INTEGER NOT NULL DEFAULT 0;
