-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "apiVersionsOutside" TEXT,
ADD COLUMN     "correlation" TEXT NOT NULL DEFAULT 'resource_id',
ADD COLUMN     "provisionalVerdict" TEXT;

-- AlterTable
ALTER TABLE "RefundRecord" ADD COLUMN     "attemptNumber" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "OperationReason" (
    "id" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "class" TEXT,

    CONSTRAINT "OperationReason_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OperationReason_operationId_idx" ON "OperationReason"("operationId");

-- CreateIndex
CREATE INDEX "OperationReason_shop_reason_idx" ON "OperationReason"("shop", "reason");

-- CreateIndex
CREATE INDEX "OperationReason_shop_class_idx" ON "OperationReason"("shop", "class");

-- CreateIndex
-- Attempt numbers for records minted before the database enforced the bound: their order on the order.
UPDATE "RefundRecord" SET "attemptNumber" = (
  SELECT COUNT(*) FROM "RefundRecord" AS earlier
  WHERE earlier."shop" = "RefundRecord"."shop" AND earlier."orderId" = "RefundRecord"."orderId"
    AND (earlier."createdAt" < "RefundRecord"."createdAt" OR (earlier."createdAt" = "RefundRecord"."createdAt" AND earlier."id" <= "RefundRecord"."id"))
);
CREATE UNIQUE INDEX "RefundRecord_shop_orderId_attemptNumber_key" ON "RefundRecord"("shop", "orderId", "attemptNumber");

-- AddForeignKey
ALTER TABLE "OperationReason" ADD CONSTRAINT "OperationReason_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Reasons of the verdicts recorded before they were rows (they were a JSON list on the operation).
INSERT INTO "OperationReason" ("id", "operationId", "shop", "reason", "kind", "class")
SELECT gen_random_uuid()::text, o."id", o."shop", r.value,
  CASE WHEN r.value = 'transaction_failed' THEN 'rule' ELSE 'contradiction' END,
  CASE r.value WHEN 'refund_on_wrong_order' THEN 'wrong subject' WHEN 'refund_amount_mismatch' THEN 'wrong amount' WHEN 'refund_currency_mismatch' THEN 'wrong amount' WHEN 'refund_predates_operation' THEN 'pre existing state' WHEN 'duplicate_refund_present' THEN 'duplicate side effect' END
FROM "Operation" AS o, jsonb_array_elements_text(o."reasons"::jsonb) AS r(value)
WHERE o."status" IN ('CONTRADICTED', 'FAILED');
