-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "eventId" TEXT,
    "topic" TEXT NOT NULL,
    "triggeredAt" TIMESTAMP(3),
    "apiVersion" TEXT NOT NULL,
    "refundGid" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "refundCreatedAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "redeliveries" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Operation" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "refundGid" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT,
    "origin" TEXT NOT NULL,
    "contractId" TEXT NOT NULL,
    "contractVersion" TEXT NOT NULL,
    "contractHash" TEXT NOT NULL,
    "contractDeclaredHash" TEXT NOT NULL,
    "amount" TEXT,
    "currency" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "actionResult" TEXT,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "reason" TEXT,
    "reasons" TEXT NOT NULL DEFAULT '[]',
    "classes" TEXT NOT NULL DEFAULT '[]',
    "escalate" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "readFailures" INTEGER NOT NULL DEFAULT 0,
    "nextDueAt" TIMESTAMP(3),
    "claimedBy" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "revision" INTEGER NOT NULL DEFAULT 0,
    "decidedAt" TIMESTAMP(3),
    "reviewState" TEXT NOT NULL DEFAULT 'none',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Operation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Observation" (
    "id" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "observedAt" TIMESTAMP(3) NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "data" TEXT,
    "error" TEXT,

    CONSTRAINT "Observation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Evaluation" (
    "id" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "evaluatedAt" TIMESTAMP(3) NOT NULL,
    "attempt" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "observationIds" TEXT NOT NULL,

    CONSTRAINT "Evaluation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopState" (
    "shop" TEXT NOT NULL,
    "lastSweepAt" TIMESTAMP(3),
    "sweepRequested" BOOLEAN NOT NULL DEFAULT false,
    "uninstalledAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopState_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "ComplianceRequest" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "detail" TEXT NOT NULL,

    CONSTRAINT "ComplianceRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_shop_refundGid_idx" ON "WebhookDelivery"("shop", "refundGid");

-- CreateIndex
CREATE INDEX "WebhookDelivery_shop_orderGid_refundCreatedAt_idx" ON "WebhookDelivery"("shop", "orderGid", "refundCreatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_shop_webhookId_key" ON "WebhookDelivery"("shop", "webhookId");

-- CreateIndex
CREATE INDEX "Operation_status_nextDueAt_idx" ON "Operation"("status", "nextDueAt");

-- CreateIndex
CREATE INDEX "Operation_shop_orderGid_idx" ON "Operation"("shop", "orderGid");

-- CreateIndex
CREATE INDEX "Operation_shop_status_startedAt_idx" ON "Operation"("shop", "status", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Operation_shop_refundGid_key" ON "Operation"("shop", "refundGid");

-- CreateIndex
CREATE INDEX "Observation_operationId_observedAt_idx" ON "Observation"("operationId", "observedAt");

-- CreateIndex
CREATE INDEX "Evaluation_operationId_evaluatedAt_idx" ON "Evaluation"("operationId", "evaluatedAt");

-- CreateIndex
CREATE INDEX "ComplianceRequest_shop_idx" ON "ComplianceRequest"("shop");

-- AddForeignKey
ALTER TABLE "Observation" ADD CONSTRAINT "Observation_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Evaluation" ADD CONSTRAINT "Evaluation_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

