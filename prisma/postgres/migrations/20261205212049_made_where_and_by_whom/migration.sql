-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "posDeviceId" TEXT;

-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "madeByApp" TEXT,
ADD COLUMN     "madeByStaff" TEXT,
ADD COLUMN     "madeIn" TEXT;


-- Refunds already verified (decision 031): one issued in this app was made here, by whom asked for
-- it; for the others the staff member the refunds/create payload named. Where they were made stays
-- unknown (null): their agreements were never read.
UPDATE "Operation" SET "madeIn" = 'this_app', "madeByStaff" = (
  SELECT r."askedBy" FROM "RefundRecord" r WHERE r."shop" = "Operation"."shop" AND r."refundRef" = "Operation"."refundGid" AND r."askedBy" IS NOT NULL ORDER BY r."createdAt" LIMIT 1
) WHERE "origin" = 'app';
UPDATE "Operation" SET "madeByStaff" = (
  SELECT d."staffUserId" FROM "WebhookDelivery" d WHERE d."shop" = "Operation"."shop" AND d."refundGid" = "Operation"."refundGid" ORDER BY d."receivedAt" LIMIT 1
) WHERE "origin" <> 'app';
