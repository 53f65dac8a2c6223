-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "amount" TEXT;
ALTER TABLE "WebhookDelivery" ADD COLUMN "currency" TEXT;
ALTER TABLE "WebhookDelivery" ADD COLUMN "openedAt" DATETIME;

-- CreateTable
CREATE TABLE "VerdictRollup" (
    "shop" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "refunds" INTEGER NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "withAmount" INTEGER NOT NULL,
    "outsideVersions" INTEGER NOT NULL,

    PRIMARY KEY ("shop", "day", "status", "currency")
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_openedAt_receivedAt_idx" ON "WebhookDelivery"("openedAt", "receivedAt");


-- Deliveries stored before the worker opened operations had theirs opened at intake.
UPDATE "WebhookDelivery" SET "openedAt" = "receivedAt" WHERE "openedAt" IS NULL;

-- The rollup follows every operation in the same statement that changes it: an insert adds the
-- refund to its row, a delete takes it away, a change of status, currency, amount, start or
-- outside-version flag moves it. The day is the UTC date of startedAt (stored as ISO-8601 text).
CREATE TRIGGER "Operation_rollup_insert" AFTER INSERT ON "Operation" BEGIN
  INSERT INTO "VerdictRollup" ("shop", "day", "status", "currency", "refunds", "amountMinor", "withAmount", "outsideVersions")
  VALUES (NEW."shop", substr(NEW."startedAt", 1, 10), NEW."status", COALESCE(NEW."currency", ''), 1, COALESCE(NEW."amountMinor", 0), NEW."amountMinor" IS NOT NULL, NEW."apiVersionsOutside" IS NOT NULL)
  ON CONFLICT ("shop", "day", "status", "currency") DO UPDATE SET "refunds" = "refunds" + 1, "amountMinor" = "amountMinor" + excluded."amountMinor",
    "withAmount" = "withAmount" + excluded."withAmount", "outsideVersions" = "outsideVersions" + excluded."outsideVersions";
END;

CREATE TRIGGER "Operation_rollup_delete" AFTER DELETE ON "Operation" BEGIN
  UPDATE "VerdictRollup" SET "refunds" = "refunds" - 1, "amountMinor" = "amountMinor" - COALESCE(OLD."amountMinor", 0),
    "withAmount" = "withAmount" - (OLD."amountMinor" IS NOT NULL), "outsideVersions" = "outsideVersions" - (OLD."apiVersionsOutside" IS NOT NULL)
  WHERE "shop" = OLD."shop" AND "day" = substr(OLD."startedAt", 1, 10) AND "status" = OLD."status" AND "currency" = COALESCE(OLD."currency", '');
END;

CREATE TRIGGER "Operation_rollup_update" AFTER UPDATE OF "shop", "status", "currency", "amountMinor", "apiVersionsOutside", "startedAt" ON "Operation"
WHEN OLD."shop" IS NOT NEW."shop" OR OLD."status" IS NOT NEW."status" OR OLD."currency" IS NOT NEW."currency" OR OLD."amountMinor" IS NOT NEW."amountMinor"
  OR (OLD."apiVersionsOutside" IS NULL) IS NOT (NEW."apiVersionsOutside" IS NULL) OR OLD."startedAt" IS NOT NEW."startedAt"
BEGIN
  UPDATE "VerdictRollup" SET "refunds" = "refunds" - 1, "amountMinor" = "amountMinor" - COALESCE(OLD."amountMinor", 0),
    "withAmount" = "withAmount" - (OLD."amountMinor" IS NOT NULL), "outsideVersions" = "outsideVersions" - (OLD."apiVersionsOutside" IS NOT NULL)
  WHERE "shop" = OLD."shop" AND "day" = substr(OLD."startedAt", 1, 10) AND "status" = OLD."status" AND "currency" = COALESCE(OLD."currency", '');
  INSERT INTO "VerdictRollup" ("shop", "day", "status", "currency", "refunds", "amountMinor", "withAmount", "outsideVersions")
  VALUES (NEW."shop", substr(NEW."startedAt", 1, 10), NEW."status", COALESCE(NEW."currency", ''), 1, COALESCE(NEW."amountMinor", 0), NEW."amountMinor" IS NOT NULL, NEW."apiVersionsOutside" IS NOT NULL)
  ON CONFLICT ("shop", "day", "status", "currency") DO UPDATE SET "refunds" = "refunds" + 1, "amountMinor" = "amountMinor" + excluded."amountMinor",
    "withAmount" = "withAmount" + excluded."withAmount", "outsideVersions" = "outsideVersions" + excluded."outsideVersions";
END;

-- Operations that existed before the rollup.
INSERT INTO "VerdictRollup" ("shop", "day", "status", "currency", "refunds", "amountMinor", "withAmount", "outsideVersions")
SELECT "shop", substr("startedAt", 1, 10), "status", COALESCE("currency", ''), COUNT(*), COALESCE(SUM("amountMinor"), 0), COUNT("amountMinor"), COUNT("apiVersionsOutside")
FROM "Operation" GROUP BY 1, 2, 3, 4;
