import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUND_CREATED } from "../../app/contracts/registry.server";
import { countRows, figures } from "../../app/dashboard/dashboard.server";
import { parseFilters, period } from "../../app/verdicts/filters";
import { liveTotals, rollupDrift } from "../../app/dashboard/rollups.server";
import { databaseKind } from "../../app/lib/db/url";
import { redactShop } from "../../app/privacy/privacy.server";
import { requestRecheck } from "../../app/review/review.server";
import { openOperation } from "../../app/verification/operations.server";
import { refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("rollup-shop.myshopify.com");
});
afterAll(async () => h.close());

const verifier = (...args: string[]) =>
  spawnSync("node", ["bin/verifier.mjs", ...args], { encoding: "utf8", env: { ...process.env, DATABASE_URL: h.app.databaseUrl } });

/** Refunds started on many days, some before the dashboard's 30 days, in two currencies, decided as a worker decides them. */
async function historyOf(shop: string, count: number, now: number) {
  for (let i = 0; i < count; i++) {
    const startedAt = new Date(now - i * 7.3 * 3600_000);
    const currency = i % 4 === 0 ? "EUR" : "USD";
    await openOperation(
      h.db,
      REFUND_CREATED,
      {
        shop,
        refundGid: `gid://shopify/Refund/${700_000 + i}`,
        orderGid: `gid://shopify/Order/${800_000 + i}`,
        origin: "webhook",
        amount: `${10 + (i % 7)}.25`,
        currency,
        startedAt,
      },
      new Date(now),
      null, // not due: no worker reads these
    );
  }
  const verdicts = ["VERIFIED", "VERIFIED", "CONTRADICTED", "FAILED", "UNVERIFIABLE"];
  const ops = await h.db.operation.findMany({ where: { shop }, orderBy: { startedAt: "asc" } });
  for (const [i, op] of ops.entries()) {
    if (i % 6 === 5) continue; // still pending
    await h.db.operation.updateMany({
      where: { id: op.id },
      data: { status: verdicts[i % verdicts.length], decidedAt: new Date(now), ...(i % 9 === 0 ? { apiVersionsOutside: "2026-07" } : {}) },
    });
  }
}

describe("the dashboard's figures from the rollup", () => {
  it("equal a count of the operations, for a period that starts and ends mid-day, through verdicts, a re-check and a redaction", async () => {
    const shop = "rollup-history.myshopify.com";
    const now = Date.UTC(2026, 10, 30, 15, 37);
    await historyOf(shop, 200, now);
    // A real verdict on the harness's shop too, by the worker.
    const order = h.shop.createOrder({ amount: "50.00" });
    const refund = h.shop.createRefund(order.id, { amount: "12.00", recordedAmount: "13.00" });
    await h.deliver(h.refundDelivery(refund));
    await h.settle();
    expect((await h.db.operation.findFirstOrThrow({ where: { shop: h.domain, refundGid: refundGid(refund.id) } })).status).toBe("CONTRADICTED");

    const kind = databaseKind(h.app.databaseUrl);
    expect(await rollupDrift(h.db, kind)).toEqual([]);
    // The last 30 days in New York: the period starts and ends at 05:00 UTC, inside the rollup's (UTC) days.
    const filters = parseFilters(new URLSearchParams("range=30d"), { now: new Date(now), timeZone: "America/New_York" });
    const shown = await figures(h.db, shop, filters);
    const { from, to } = period(filters);
    const counted = await liveTotals(h.db, shop, from, to);
    const sum = (status: string) => counted.filter((t) => t.status === status).reduce((n, t) => n + t.refunds, 0);
    expect(shown.counts).toMatchObject({ VERIFIED: sum("VERIFIED"), CONTRADICTED: sum("CONTRADICTED"), FAILED: sum("FAILED"), PENDING: sum("PENDING") });
    expect(Object.values(shown.counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(90);
    expect(shown.outsideContractVersions).toBe(counted.reduce((n, t) => n + t.outsideVersions, 0));
    const eur = counted.filter((t) => t.status === "VERIFIED" && t.currency === "EUR")[0];
    expect(shown.money).toContainEqual(
      expect.objectContaining({ status: "VERIFIED", currency: "EUR", amount: `${eur.amountMinor / 100n}.${String(eur.amountMinor % 100n).padStart(2, "0")}` }),
    );
    // The table's count: every refund of the shop, and the verdict filter, from the rollup; a class filter from the rows.
    expect(await countRows(h.db, shop, parseFilters(new URLSearchParams()))).toBe(200);
    expect(await countRows(h.db, shop, filters)).toBe(Object.values(shown.counts).reduce((a, b) => a + b, 0));
    expect(await countRows(h.db, shop, parseFilters(new URLSearchParams("verdict=PENDING")))).toBe(
      await h.db.operation.count({ where: { shop, status: "PENDING" } }),
    );

    // A person re-checks an UNVERIFIABLE refund: it moves back to PENDING in the rollup too.
    const unverifiable = await h.db.operation.findFirstOrThrow({ where: { shop, status: "UNVERIFIABLE" } });
    expect((await requestRecheck(h.db, { shop, id: unverifiable.id, revision: unverifiable.revision, actor: "staff" }, new Date(now))).ok).toBe(true);
    expect(await rollupDrift(h.db, kind)).toEqual([]);
    // shop/redact removes every operation of the shop: nothing of it stays in the rollup.
    await redactShop(h.db, shop);
    expect(await rollupDrift(h.db, kind)).toEqual([]);
    expect(await h.db.verdictRollup.count({ where: { shop } })).toBe(0);
  });

  it("`verifier rollups` finds a rollup that drifted, and --rebuild recounts it", async () => {
    const shop = "rollup-cli.myshopify.com";
    await historyOf(shop, 30, Date.now());
    expect(verifier("rollups").stdout).toContain("rollup matches a recount of the operations");
    await h.db.verdictRollup.updateMany({ where: { shop, status: "VERIFIED" }, data: { refunds: { increment: 5 } } });
    const drifted = verifier("rollups", "--shop", shop);
    expect(drifted.status).toBe(2);
    expect(drifted.stderr).toMatch(/rollup differs from a recount in \d+ rows; run `verifier rollups --rebuild`/);
    expect(drifted.stderr).toContain(`${shop} `);
    const rebuilt = verifier("rollups", "--rebuild", "--shop", shop);
    expect(rebuilt.stdout).toMatch(/rollup rebuilt from the operations of rollup-cli\.myshopify\.com: \d+ rows/);
    expect(await rollupDrift(h.db, databaseKind(h.app.databaseUrl))).toEqual([]);
  });
});
