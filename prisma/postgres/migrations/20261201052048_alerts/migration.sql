-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "alertedVerdict" TEXT;

-- CreateTable
CREATE TABLE "AlertSettings" (
    "shop" TEXT NOT NULL,
    "emailRecipients" TEXT NOT NULL DEFAULT '',
    "slackUrlSealed" TEXT,
    "slackUrlHint" TEXT,
    "verdicts" TEXT NOT NULL DEFAULT 'CONTRADICTED,FAILED,UNVERIFIABLE',
    "delivery" TEXT NOT NULL DEFAULT 'instant',
    "digestHour" INTEGER NOT NULL DEFAULT 8,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertSettings_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "FlowTriggerUsage" (
    "shop" TEXT NOT NULL,
    "definitionId" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "reportedAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FlowTriggerUsage_pkey" PRIMARY KEY ("shop","definitionId")
);

-- CreateTable
CREATE TABLE "AlertEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "decidedAt" TIMESTAMP(3) NOT NULL,
    "instantStatus" TEXT NOT NULL,
    "groupId" TEXT,
    "groupedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertDelivery" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    "dedupeKey" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "claimedBy" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "deliveredAt" TIMESTAMP(3),

    CONSTRAINT "AlertDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AlertEvent_shop_instantStatus_decidedAt_idx" ON "AlertEvent"("shop", "instantStatus", "decidedAt");

-- CreateIndex
CREATE INDEX "AlertEvent_instantStatus_decidedAt_idx" ON "AlertEvent"("instantStatus", "decidedAt");

-- CreateIndex
CREATE INDEX "AlertEvent_instantStatus_groupedAt_idx" ON "AlertEvent"("instantStatus", "groupedAt");

-- CreateIndex
CREATE INDEX "AlertEvent_groupId_idx" ON "AlertEvent"("groupId");

-- CreateIndex
CREATE UNIQUE INDEX "AlertEvent_operationId_verdict_key" ON "AlertEvent"("operationId", "verdict");

-- CreateIndex
CREATE UNIQUE INDEX "AlertDelivery_dedupeKey_key" ON "AlertDelivery"("dedupeKey");

-- CreateIndex
CREATE INDEX "AlertDelivery_status_nextAttemptAt_idx" ON "AlertDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "AlertDelivery_shop_createdAt_idx" ON "AlertDelivery"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "Operation_status_alertedVerdict_idx" ON "Operation"("status", "alertedVerdict");

-- AddForeignKey
ALTER TABLE "AlertEvent" ADD CONSTRAINT "AlertEvent_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Verdicts decided before alerts existed were already seen on the dashboard: they owe no alert.
UPDATE "Operation" SET "alertedVerdict" = "status" WHERE "status" IN ('CONTRADICTED', 'FAILED', 'UNVERIFIABLE');
