import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeRefund } from "../../fake-shopify/shop";
import { disputeWebhookBody, newDelivery } from "../../fake-shopify/webhooks";
import { csvRecords, readCsv } from "../support/csv";
import { embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 43, what people see in the CSV: whether each refund's money is at risk of being paid twice
// (contract shopify.refund.exposure), in words for people and in the engine's words for scripts.

let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
const DAY = 24 * 3600_000;
let clear: FakeRefund;
let disputed: FakeRefund;
let cash: FakeRefund;
let wrong: FakeRefund;

beforeAll(async () => {
  h = await startVerificationHarness("csv-exposure-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain);
  // A refund with nothing against it, and one whose order then gets a chargeback.
  const [a, b] = [h.shop.createOrder({ amount: "100.00" }), h.shop.createOrder({ amount: "100.00" })];
  clear = h.shop.createRefund(a.id, { amount: "30.00" });
  disputed = h.shop.createRefund(b.id, { amount: "40.00" });
  // Store credit, then the card past what was paid.
  const c = h.shop.createOrder({ amount: "60.00" });
  const credit = h.shop.createRefund(c.id, { storeCredit: "60.00" });
  // Days later: a second refund of the same amount minutes after the first would be judged its duplicate.
  h.clock.ms += 2 * DAY;
  cash = h.shop.createRefund(c.id, { amount: "60.00" });
  // A refund of another amount than Shopify recorded: CONTRADICTED, so never judged for exposure.
  const d = h.shop.createOrder({ amount: "50.00" });
  wrong = h.shop.createRefund(d.id, { amount: "20.00", recordedAmount: "21.00" });
  for (const refund of [clear, disputed, credit, cash, wrong]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
  await h.settle();
  await h.worker.runExposures();
  h.clock.ms += DAY;
  const dispute = h.shop.createDispute(b.id, { amount: "100.00" });
  expect((await h.deliver(newDelivery("disputes/create", h.domain, disputeWebhookBody(h.shop, dispute), h.clock.now()))).status).toBe(200);
  await h.worker.runExposures();
  expect((await operationFor(h.db, refundGid(wrong.id))).status).toBe("CONTRADICTED");
});
afterAll(async () => h.close());

const byRefund = (rows: Record<string, string>[], refund: FakeRefund, column: string) =>
  rows.find((row) => row[column].endsWith(`/${refund.id}`) || row[column] === String(refund.id));

describe("the CSV says whether a refund's money is at risk twice", () => {
  it("for people: 'Money at risk twice' in words, the amount with its currency and what puts it at risk; Clear; empty when not judged", async () => {
    const text = await (await asShop("/app/refunds.csv?range=all")).text();
    expect(readCsv(text)[0]).toContain("Money at risk twice");
    const rows = csvRecords(text);
    expect(byRefund(rows, clear, "Refund ID")!["Money at risk twice"]).toBe("Clear");
    expect(byRefund(rows, disputed, "Refund ID")!["Money at risk twice"]).toBe("At risk twice: $40.00, chargeback open");
    expect(byRefund(rows, cash, "Refund ID")!["Money at risk twice"]).toBe("At risk twice: $60.00, more back than paid, store credit and cash");
    expect(byRefund(rows, wrong, "Refund ID")!["Money at risk twice"]).toBe("");
  });

  it("raw: exposure_status, exposure_reasons, at_risk_amount and at_risk_currency, after the payout's columns (the refund limits' follow), every row as wide as the header", async () => {
    const text = await (await asShop("/app/refunds.csv?range=all&format=raw")).text();
    const lines = readCsv(text);
    const at = lines[0].indexOf("exposure_status");
    expect(lines[0].slice(at - 1, at + 5)).toEqual(["payout_status", "exposure_status", "exposure_reasons", "at_risk_amount", "at_risk_currency", "asked_by"]);
    for (const line of lines) expect(line).toHaveLength(lines[0].length);
    const rows = csvRecords(text);
    // The engine's words as it stored them: a clear refund's are the conditions that held.
    expect(byRefund(rows, clear, "refund_id")).toMatchObject({
      exposure_status: "VERIFIED",
      exposure_reasons: "no_open_dispute; no_dispute_lost; not_refunded_past_payment; no_store_credit_and_payment; no_item_refunded_past_quantity",
      at_risk_amount: "",
      at_risk_currency: "",
    });
    expect(byRefund(rows, disputed, "refund_id")).toMatchObject({
      exposure_status: "CONTRADICTED",
      exposure_reasons: "refund_on_disputed_order",
      at_risk_amount: "40.00",
      at_risk_currency: "USD",
    });
    expect(byRefund(rows, cash, "refund_id")).toMatchObject({
      exposure_status: "CONTRADICTED",
      exposure_reasons: "refunded_past_payment; store_credit_and_payment",
      at_risk_amount: "60.00",
      at_risk_currency: "USD",
    });
    expect(byRefund(rows, wrong, "refund_id")).toMatchObject({ exposure_status: "", exposure_reasons: "", at_risk_amount: "", at_risk_currency: "" });
  });
});
