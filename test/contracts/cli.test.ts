import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allEvidence, bindings, eurRefund } from "./fixtures/bindings";

const SEED = "contracts/shopify.refund.created@1.0.0.json";
const V110 = "contracts/shopify.refund.created@1.1.0.json";
const V120 = "contracts/shopify.refund.created@1.2.0.json";
const dir = mkdtempSync(join(tmpdir(), "rv-cli-"));

/** The real command, as support staff run it: `npm run --silent contract -- …` runs bin/contract.mjs's module. */
function contract(...args: string[]) {
  const result = spawnSync("node", ["bin/contract.mjs", ...args], { encoding: "utf8" });
  return { stdout: result.stdout, stderr: result.stderr, code: result.status };
}

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("contract CLI", () => {
  it("evaluate prints the verdict and every condition", () => {
    const { stdout, code } = contract("evaluate", SEED, file("amount.json", bindings(allEvidence({ amount: "20.00" }))));
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "refund_amount_mismatch", reasons: ["refund_amount_mismatch"], escalate: true });
    expect(result.conditions).toHaveLength(8);
    expect(result.conditions[4]).toMatchObject({
      id: "refund_amount_mismatch",
      group: "contradicted",
      status: "holds",
      path: "$observed.refund_readback.data.refund.totalRefundedSet.shopMoney.amount",
      operator: "ne",
      expected: "$input.amount",
      actual: "20.00",
    });
  });

  it("evaluate takes the contract version's own file", () => {
    const { stdout, code } = contract("evaluate", V110, file("eur.json", eurRefund({ currency: "GBP" })));
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "refund_currency_mismatch", contract: { version: "1.1.0" } });
    expect(result.conditions).toHaveLength(9);
  });

  it("schedule prints one attempt per line", () => {
    const { stdout, code } = contract("schedule", SEED);
    expect(code).toBe(0);
    expect(stdout.trim().split("\n").slice(0, 4)).toEqual(["1000", "6000", "16000", "36000"]);
  });

  it("render prints the contract for people, from the data", () => {
    const { stdout } = contract("render", SEED);
    expect(stdout).toContain("# shopify.refund.created: the created contract");
    for (const id of ["refund_created_in_window", "refund_present", "refund_webhook_present", "refund_on_wrong_order", "refund_amount_mismatch", "refund_predates_operation", "duplicate_refund_present", "transaction_failed"]) {
      expect(stdout).toContain(`\`${id}\``);
    }
    expect(stdout).toContain("| Poll interval | 5000 ms |");
    expect(stdout).toContain("shopify.graphql#/enums/WebhookSubscriptionTopic/values/REFUNDS_CREATE");
    expect(stdout).toContain("| Idempotency | not stated |");
  });

  it("renders 1.1.0's stated idempotency and its new contradiction", () => {
    const { stdout } = contract("render", V110);
    expect(stdout).toContain("| Idempotency | `@idempotent(key:)` on `refundCreate`, required from API version `2026-04`; the key is the id of the app's refund record");
    expect(stdout).toContain("`refund_currency_mismatch`");
    expect(stdout).toContain("`$observed.refund_readback.data.refund.transactions[*].status` in");
  });

  it("renders 1.2.0's duplicate in words, and its rule for a refund Shopify never shows", () => {
    const { stdout } = contract("render", V120);
    expect(stdout).toContain(
      "| `duplicate_refund_present` | duplicate side effect | Shopify holds another refund of the same amount on this order, made within the 10 minutes before this one. Do not retry. | `$observed.earlier_duplicates.count` | `gt` | `0` | `earlier_duplicates` |",
    );
    expect(stdout).toContain(
      "| `refund_not_in_shop` | `$observed.refund_absence.reads_without_refund` gte `10` | UNVERIFIABLE | Shopify does not show this refund in the shop: ten reads after it should have been visible found no such refund. | `refund_absence` |",
    );
    expect(stdout).toContain("| `intended_refund` | E1 | none | `app record` |");
  });

  it("hash prints the declared and the computed hash, and says whether they differ", () => {
    const seed = contract("hash", SEED);
    expect(seed.code).toBe(0);
    expect(seed.stdout).toMatch(/^declared 3b0c1707cf0adcf1\ncomputed [0-9a-f]{16}\ndeclared and computed differ: the declared hash was made by the contract's author's tool\n$/);
    const ours = contract("hash", V110);
    expect(ours.code).toBe(0);
    expect(ours.stdout).toMatch(/^declared ([0-9a-f]{16})\ncomputed \1\ndeclared and computed match\n$/);
  });

  it("exits 2 naming the problem", () => {
    const missing = contract("evaluate", join(dir, "nope.json"), join(dir, "nope2.json"));
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toMatch(/cannot read contract file .*nope\.json: ENOENT/);
    expect(contract("evaluate", SEED, file("bad.json", "{ not json"))).toMatchObject({ code: 2 });
    expect(contract("evaluate", SEED, file("bad.json", "{ not json")).stderr).toMatch(/the bindings is not valid JSON/);
    const invalid = JSON.parse(readFileSync(SEED, "utf8"));
    invalid.timing.backoff.factor = 0;
    expect(contract("hash", file("invalid.json", invalid)).stderr).toMatch(/invalid contract:\n {2}- timing\.backoff\.factor: /);
    expect(contract("evaluate", SEED, file("nobindings.json", { input: {} })).stderr).toMatch(/invalid bindings/);
    expect(contract("frobnicate").code).toBe(2);
    expect(contract().stderr).toMatch(/usage: contract/);
  });

  it("refuses an option it does not know instead of reading it as a file", () => {
    const refused = contract("render", "--verbose", SEED);
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toMatch(/Unknown option '--verbose'[\s\S]*usage: contract/);
  });
});
