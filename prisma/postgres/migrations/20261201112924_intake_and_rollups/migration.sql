-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "amount" TEXT,
ADD COLUMN     "currency" TEXT,
ADD COLUMN     "openedAt" TIMESTAMP(3);

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

    CONSTRAINT "VerdictRollup_pkey" PRIMARY KEY ("shop","day","status","currency")
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_openedAt_receivedAt_idx" ON "WebhookDelivery"("openedAt", "receivedAt");


-- Deliveries stored before the worker opened operations had theirs opened at intake.
UPDATE "WebhookDelivery" SET "openedAt" = "receivedAt" WHERE "openedAt" IS NULL;

-- Function bodies are E'' strings with \073 for each semicolon: Prisma's migrate splits a script at
-- every semicolon, in quotes and comments too.
-- Adds a refund's contribution to its rollup row (sign -1 takes it away).
CREATE FUNCTION "verdict_rollup_add"(p_shop TEXT, p_started TIMESTAMP(3), p_status TEXT, p_currency TEXT, p_amount BIGINT, p_outside TEXT, p_sign INTEGER) RETURNS VOID AS E'
  INSERT INTO "VerdictRollup" ("shop", "day", "status", "currency", "refunds", "amountMinor", "withAmount", "outsideVersions")
  VALUES (p_shop, to_char(p_started, ''YYYY-MM-DD''), p_status, COALESCE(p_currency, ''''), p_sign, p_sign * COALESCE(p_amount, 0),
    CASE WHEN p_amount IS NULL THEN 0 ELSE p_sign END, CASE WHEN p_outside IS NULL THEN 0 ELSE p_sign END)
  ON CONFLICT ("shop", "day", "status", "currency") DO UPDATE SET "refunds" = "VerdictRollup"."refunds" + excluded."refunds",
    "amountMinor" = "VerdictRollup"."amountMinor" + excluded."amountMinor", "withAmount" = "VerdictRollup"."withAmount" + excluded."withAmount",
    "outsideVersions" = "VerdictRollup"."outsideVersions" + excluded."outsideVersions"\073
' LANGUAGE SQL;

-- The rollup follows every operation in the same statement that changes it. A move touches two
-- rows, locked in one order (by status) so that two moves in opposite directions
-- (a timeout to UNVERIFIABLE, a re-check back to PENDING) cannot deadlock.
CREATE FUNCTION "verdict_rollup"() RETURNS TRIGGER AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    PERFORM "verdict_rollup_add"(NEW."shop", NEW."startedAt", NEW."status", NEW."currency", NEW."amountMinor", NEW."apiVersionsOutside", 1)\073
  ELSIF TG_OP = ''DELETE'' THEN
    PERFORM "verdict_rollup_add"(OLD."shop", OLD."startedAt", OLD."status", OLD."currency", OLD."amountMinor", OLD."apiVersionsOutside", -1)\073
  ELSIF OLD."status" <= NEW."status" THEN
    PERFORM "verdict_rollup_add"(OLD."shop", OLD."startedAt", OLD."status", OLD."currency", OLD."amountMinor", OLD."apiVersionsOutside", -1)\073
    PERFORM "verdict_rollup_add"(NEW."shop", NEW."startedAt", NEW."status", NEW."currency", NEW."amountMinor", NEW."apiVersionsOutside", 1)\073
  ELSE
    PERFORM "verdict_rollup_add"(NEW."shop", NEW."startedAt", NEW."status", NEW."currency", NEW."amountMinor", NEW."apiVersionsOutside", 1)\073
    PERFORM "verdict_rollup_add"(OLD."shop", OLD."startedAt", OLD."status", OLD."currency", OLD."amountMinor", OLD."apiVersionsOutside", -1)\073
  END IF\073
  RETURN NULL\073
END\073
' LANGUAGE plpgsql;

CREATE TRIGGER "Operation_rollup_insert_delete" AFTER INSERT OR DELETE ON "Operation" FOR EACH ROW EXECUTE FUNCTION "verdict_rollup"();
CREATE TRIGGER "Operation_rollup_update" AFTER UPDATE OF "shop", "status", "currency", "amountMinor", "apiVersionsOutside", "startedAt" ON "Operation" FOR EACH ROW
WHEN (OLD."shop" IS DISTINCT FROM NEW."shop" OR OLD."status" IS DISTINCT FROM NEW."status" OR OLD."currency" IS DISTINCT FROM NEW."currency"
  OR OLD."amountMinor" IS DISTINCT FROM NEW."amountMinor" OR (OLD."apiVersionsOutside" IS NULL) <> (NEW."apiVersionsOutside" IS NULL) OR OLD."startedAt" IS DISTINCT FROM NEW."startedAt")
EXECUTE FUNCTION "verdict_rollup"();

-- Operations that existed before the rollup.
INSERT INTO "VerdictRollup" ("shop", "day", "status", "currency", "refunds", "amountMinor", "withAmount", "outsideVersions")
SELECT "shop", to_char("startedAt", 'YYYY-MM-DD'), "status", COALESCE("currency", ''), COUNT(*), COALESCE(SUM("amountMinor"), 0), COUNT("amountMinor"), COUNT("apiVersionsOutside")
FROM "Operation" GROUP BY 1, 2, 3, 4;
