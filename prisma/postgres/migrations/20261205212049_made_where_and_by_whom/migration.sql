-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "posDeviceId" TEXT;

-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "madeByApp" TEXT,
ADD COLUMN     "madeByStaff" TEXT,
ADD COLUMN     "madeIn" TEXT;


-- Refunds already verified (decision 031): one issued in this app was made here, by whom asked for
-- it, and the others by the staff member the refunds/create payload named. Where they were made stays
-- unknown (null), as their agreements were never read. No semicolon in these comments: PostgreSQL's
-- migration is split at each one.
UPDATE "Operation" SET "madeIn" = 'this_app', "madeByStaff" = (
  SELECT r."askedBy" FROM "RefundRecord" r WHERE r."shop" = "Operation"."shop" AND r."refundRef" = "Operation"."refundGid" AND r."askedBy" IS NOT NULL ORDER BY r."createdAt" LIMIT 1
) WHERE "origin" = 'app';
UPDATE "Operation" SET "madeByStaff" = (
  SELECT d."staffUserId" FROM "WebhookDelivery" d WHERE d."shop" = "Operation"."shop" AND d."refundGid" = "Operation"."refundGid" ORDER BY d."receivedAt" LIMIT 1
) WHERE "origin" <> 'app';
