-- AlterTable
ALTER TABLE "Backfill" ADD COLUMN     "errors" INTEGER NOT NULL DEFAULT 0;

