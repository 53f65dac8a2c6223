import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import type { FakeRefund } from "../../fake-shopify/shop";
import { csvRecords, readCsv } from "../support/csv";

// Issue 28, what people see: the CSV says where each refund's money is, with the card network's
// reference (ARN) and the payout that carried it; the raw format in the engine's words.

let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
const WITH_PAYOUTS = "read_orders,write_orders,read_shopify_payments_accounts,read_shopify_payments_payouts";
let paid: { refund: FakeRefund; arn: string; payoutGid: string };
let wrong: FakeRefund;

beforeAll(async () => {
  h = await startVerificationHarness("csv-money-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain);
  await h.db.session.updateMany({ where: { shop: h.domain }, data: { scope: WITH_PAYOUTS } });
  const order = h.shop.createOrder({ amount: "100.00", gateway: "shopify_payments" });
  const refund = h.shop.createRefund(order.id, { amount: "25.00" });
  expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
  await h.settle();
  // Settlement passes until the payout is PAID and the card network's reference is known.
  for (let pass = 0; pass < 200; pass++) {
    await h.worker.runSettlements();
    const settlement = await h.db.settlement.findFirst({ where: { refundGid: refundGid(refund.id) } });
    if (settlement?.status === "VERIFIED" && settlement.arn && settlement.payoutGid) {
      paid = { refund, arn: settlement.arn, payoutGid: settlement.payoutGid };
      break;
    }
    if (!settlement?.nextDueAt) throw new Error(`not followed: ${JSON.stringify(settlement)}`);
    if (settlement.nextDueAt.getTime() > h.clock.ms) h.clock.ms = settlement.nextDueAt.getTime();
  }
  expect(paid).toBeDefined();
  // A refund of another amount than Shopify recorded: CONTRADICTED, never followed to the payout.
  const other = h.shop.createOrder({ amount: "50.00" });
  wrong = h.shop.createRefund(other.id, { amount: "20.00", recordedAmount: "21.00" });
  expect((await h.deliver(h.refundDelivery(wrong))).status).toBe(200);
  await h.settle();
  expect((await operationFor(h.db, refundGid(wrong.id))).status).toBe("CONTRADICTED");
});
afterAll(async () => h.close());

const byRefund = (rows: Record<string, string>[], refund: FakeRefund, column: string) => rows.find((row) => row[column].endsWith(String(refund.id)));

describe("the CSV says where the money is", () => {
  it("for people: Money in words, the ARN kept as text, the payout and its status", async () => {
    const text = await (await asShop("/app/refunds.csv?range=all")).text();
    expect(readCsv(text)[0]).toEqual(expect.arrayContaining(["Money", "Card reference (ARN)", "Payout", "Payout status"]));
    const rows = csvRecords(text);
    expect(rows).toHaveLength(2);
    expect(byRefund(rows, paid.refund, "Refund ID")).toMatchObject({
      Money: "Settled",
      // 23 digits alone would be read by a spreadsheet as a number, and rounded.
      "Card reference (ARN)": `ARN ${paid.arn}`,
      Payout: paid.payoutGid,
      "Payout status": "Paid",
    });
    expect(byRefund(rows, wrong, "Refund ID")).toMatchObject({ Money: "Not followed", "Card reference (ARN)": "", Payout: "", "Payout status": "" });
  });

  it("raw: settlement_status, money, arn, payout_id and payout_status, after the columns before them (the exposure's four follow, then the refund limits')", async () => {
    const text = await (await asShop("/app/refunds.csv?range=all&format=raw")).text();
    const header = readCsv(text)[0];
    const at = header.indexOf("settlement_status");
    expect(header.slice(at - 2, at + 6)).toEqual([
      "resolution_note",
      "resolved_by",
      "settlement_status",
      "money",
      "arn",
      "payout_id",
      "payout_status",
      "exposure_status",
    ]);
    const rows = csvRecords(text);
    expect(byRefund(rows, paid.refund, "refund_id")).toMatchObject({
      settlement_status: "VERIFIED",
      money: "paid",
      arn: paid.arn,
      payout_id: paid.payoutGid.split("/").pop(),
      payout_status: "PAID",
    });
    expect(byRefund(rows, wrong, "refund_id")).toMatchObject({ settlement_status: "", money: "", arn: "", payout_id: "", payout_status: "" });
  });
});
