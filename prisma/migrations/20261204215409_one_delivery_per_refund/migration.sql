-- One delivery per refund and topic (issue 42). Rows stored before, for a refund and topic
-- already stored (a replay under fresh webhook ids, Shopify's duplicate of an event), are folded
-- into the earliest: it counts them, and their own redeliveries, in "redeliveries", and go.
UPDATE "WebhookDelivery" SET "redeliveries" = "redeliveries" + (
  SELECT COALESCE(SUM(later."redeliveries" + 1), 0) FROM "WebhookDelivery" AS later
  WHERE later."shop" = "WebhookDelivery"."shop" AND later."topic" = "WebhookDelivery"."topic"
    AND later."refundGid" = "WebhookDelivery"."refundGid" AND later."id" <> "WebhookDelivery"."id"
)
WHERE NOT EXISTS (
  SELECT 1 FROM "WebhookDelivery" AS earlier
  WHERE earlier."shop" = "WebhookDelivery"."shop" AND earlier."topic" = "WebhookDelivery"."topic"
    AND earlier."refundGid" = "WebhookDelivery"."refundGid"
    AND (earlier."receivedAt" < "WebhookDelivery"."receivedAt" OR (earlier."receivedAt" = "WebhookDelivery"."receivedAt" AND earlier."id" < "WebhookDelivery"."id"))
);
DELETE FROM "WebhookDelivery" WHERE EXISTS (
  SELECT 1 FROM "WebhookDelivery" AS earlier
  WHERE earlier."shop" = "WebhookDelivery"."shop" AND earlier."topic" = "WebhookDelivery"."topic"
    AND earlier."refundGid" = "WebhookDelivery"."refundGid"
    AND (earlier."receivedAt" < "WebhookDelivery"."receivedAt" OR (earlier."receivedAt" = "WebhookDelivery"."receivedAt" AND earlier."id" < "WebhookDelivery"."id"))
);

-- DropIndex
DROP INDEX "WebhookDelivery_shop_webhookId_key";

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_shop_topic_refundGid_key" ON "WebhookDelivery"("shop", "topic", "refundGid");

