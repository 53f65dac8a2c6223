-- DropIndex
DROP INDEX "Operation_shop_status_startedAt_idx";

-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "amountMinor" BIGINT;

-- CreateTable
CREATE TABLE "ReviewEvent" (
    "id" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "note" TEXT,
    "actor" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReviewEvent_operationId_createdAt_idx" ON "ReviewEvent"("operationId", "createdAt");

-- CreateIndex
CREATE INDEX "Operation_shop_startedAt_id_idx" ON "Operation"("shop", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Operation_shop_status_startedAt_id_idx" ON "Operation"("shop", "status", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Operation_shop_reviewState_decidedAt_idx" ON "Operation"("shop", "reviewState", "decidedAt");

-- AddForeignKey
ALTER TABLE "ReviewEvent" ADD CONSTRAINT "ReviewEvent_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

