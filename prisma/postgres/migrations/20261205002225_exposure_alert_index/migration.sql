-- CreateIndex
CREATE INDEX "Exposure_status_decidedAt_idx" ON "Exposure"("status", "decidedAt");

