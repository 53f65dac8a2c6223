import { spawn, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedHistory } from "../../fake-shopify/history";
import { TEST_APP } from "../support/credentials";
import { installShop } from "../support/sessions";
import { refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("cli-shop.myshopify.com");
});
afterAll(async () => h.close());

function verifier(...args: string[]) {
  const result = spawnSync("node", ["bin/verifier.mjs", ...args], { encoding: "utf8", env: { ...process.env, DATABASE_URL: h.app.databaseUrl } });
  return { stdout: result.stdout, stderr: result.stderr, code: result.status };
}

describe("verifier CLI", () => {
  it("lists a shop's operations, as a table and as JSON", async () => {
    const order = h.shop.createOrder({ amount: "30.00" });
    const refund = h.shop.createRefund(order.id, { amount: "7.50", recordedAmount: "8.00" });
    await h.deliver(h.refundDelivery(refund));
    await h.settle();
    const json = verifier("operations", "--shop", h.domain, "--json");
    expect(json.code).toBe(0);
    const [row] = JSON.parse(json.stdout);
    expect(row).toMatchObject({
      refund: refundGid(refund.id),
      order: `gid://shopify/Order/${order.id}`,
      origin: "webhook",
      verdict: "CONTRADICTED",
      reason: "refund_amount_mismatch",
      reasons: ["refund_amount_mismatch"],
      escalate: true,
      // Read once inside the stale read window (provisional), once after it.
      attempts: 2,
      next_due_at: null,
      contract: "shopify.refund.created@1.3.0",
    });
    expect(row.contract_hash).toMatch(/^[0-9a-f]{16}$/);
    const text = verifier("operations", "--shop", h.domain);
    expect(text.stdout.split("\n")[0]).toMatch(/^id\s+refund\s+order/);
    expect(text.stdout).toContain("refund_amount_mismatch");
  });

  it("reverify makes a pending operation due now and refuses to reopen a final one", async () => {
    const order = h.shop.createOrder({ amount: "30.00" });
    const refund = h.shop.createRefund(order.id, { amount: "3.00", visibleAfterMs: 3600_000 });
    await h.deliver(h.refundDelivery(refund));
    await h.settle(60_000);
    const op = await h.db.operation.findFirstOrThrow({ where: { refundGid: refundGid(refund.id) } });
    expect(op.nextDueAt!.getTime()).toBeGreaterThan(Date.now());
    const out = verifier("reverify", op.id);
    expect(out.stdout).toContain("is due now");
    expect((await h.db.operation.findUniqueOrThrow({ where: { id: op.id } })).nextDueAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const final = await h.db.operation.findFirstOrThrow({ where: { status: "CONTRADICTED" } });
    expect(verifier("reverify", final.id).stdout).toContain("is final (CONTRADICTED)");
  });

  it("explains bad usage on stderr with exit 2", () => {
    expect(verifier("operations", "--shop", "not a shop")).toMatchObject({ code: 2, stdout: "" });
    expect(verifier("reverify", "nope").stderr).toContain("no operation nope");
    expect(verifier().stderr).toContain("usage: verifier");
  });

  it("refuses an option it does not know, and an option without its value, instead of ignoring them", () => {
    const misspelt = verifier("operations", "--shop", h.domain, "--jsn");
    expect(misspelt).toMatchObject({ code: 2, stdout: "" });
    expect(misspelt.stderr).toMatch(/Unknown option '--jsn'[\s\S]*usage: verifier/);
    expect(verifier("sweep", "--shop")).toMatchObject({ code: 2, stderr: expect.stringContaining("argument missing") });
  });
});

describe("verifier backfill", () => {
  it("verifies a shop's history with a progress line, and ends with what the history holds", async () => {
    const domain = "cli-history.myshopify.com";
    // The CLI is a process of its own, on the wall clock: so is Shopify for it.
    h.useWallClock();
    await installShop(h.db, h.app.shopify, domain);
    const seeded = seedHistory(h.app.shopify.shop(domain), 40, { days: 20 });
    const child = spawn("node", ["bin/verifier.mjs", "backfill", "--shop", domain, "--days", "30"], {
      env: { ...process.env, DATABASE_URL: h.app.databaseUrl, SHOPIFY_API_KEY: TEST_APP.apiKey, SHOPIFY_API_SECRET: TEST_APP.secret, NODE_ENV: "production" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(stderr).toContain(`backfill of ${domain}'s last 30 days requested`);
    expect(stderr).toMatch(/Verifying \d+ of 40 refunds/);
    expect(code).toBe(0);
    const duplicates = [...seeded.expected.values()].filter((e) => "reason" in e && e.reason === "duplicate_refund_in_history").length;
    expect(stdout).toMatch(new RegExp(`^40 refunds in 30 days: \\d+ verified, ${duplicates} duplicates?,`));
    expect(await h.db.operation.count({ where: { shop: domain, origin: "backfill" } })).toBe(40);
  });

  it("refuses --days outside 1 to 365", () => {
    const result = verifier("backfill", "--shop", h.domain, "--days", "0");
    expect([result.code, result.stderr]).toEqual([2, expect.stringContaining("--days needs a whole number from 1 to 365")]);
  });
});
