-- CreateIndex
CREATE INDEX "Settlement_status_decidedAt_idx" ON "Settlement"("status", "decidedAt");

