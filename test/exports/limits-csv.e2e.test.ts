import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeRefund } from "../../fake-shopify/shop";
import { csvRecords, readCsv } from "../support/csv";
import { dataPath } from "../support/embedded";
import { APPROVER, ASKER, CLERK, limitsOf, OWNER } from "../support/limits";
import { refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 44, what people see in the CSV: a refund that waited for approval keeps who asked, how it
// was decided, by whom, when, the note and the limits it went over; a refund made outside the app
// over a limit keeps that in words. The columns come after every column there was (decision 021).

let h: VerificationHarness;
const shop = limitsOf(() => h);
const { as } = shop;
const LIMIT = "$180.00 is over the shop's limit of $100.00 per refund.";
let approvedRefundGid: string;
let decidedAt: Date;
let outside: FakeRefund;
let within: FakeRefund;

beforeAll(async () => {
  h = await startVerificationHarness("csv-limits.myshopify.com");
  await shop.meetStaff();
  expect((await shop.saveLimits(OWNER, { perRefund: "100" }, { [APPROVER]: { approver: true } })).status).toBe(200);

  // $180 asked for in the app by Sam Lee, approved by Ada Lovelace with a note.
  const order = h.shop.createOrder({ amount: "300.00" });
  const ask = new URLSearchParams({ intent: "issue", amount: "180.00", formToken: randomUUID() });
  expect((await as(ASKER)(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), { method: "POST", body: ask })).status).toBe(202);
  const record = await h.db.refundRecord.findFirstOrThrow({ where: { orderId: `gid://shopify/Order/${order.id}` } });
  const request = await h.db.refundApproval.findUniqueOrThrow({ where: { recordId: record.id } });
  const requestPath = dataPath(`/app/approvals/${request.id}`, "routes/app.approvals.$id");
  const revision = String((await (await as(APPROVER)(requestPath)).json()).limitsNow.revision);
  const approve = new URLSearchParams({ intent: "approve", limitsRevision: revision, note: "=Damaged, photos seen" });
  expect((await as(APPROVER)(requestPath, { method: "POST", body: approve })).status).toBe(200);
  approvedRefundGid = (await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } })).refundRef!;
  decidedAt = (await h.db.refundApproval.findUniqueOrThrow({ where: { id: request.id } })).decidedAt!;

  // $180 refunded in Shopify admin by Kit Marlowe, and $40 by them within the limit.
  outside = h.shop.createRefund(h.shop.createOrder({ amount: "500.00" }).id, { amount: "180.00", staffUserId: CLERK });
  within = h.shop.createRefund(h.shop.createOrder({ amount: "500.00" }).id, { amount: "40.00", staffUserId: CLERK });
  for (const refund of [outside, within]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
  await h.settle();
  await h.worker.runOnce();
  expect(await h.db.limitBreach.count({ where: { shop: h.domain } })).toBe(1);
});
afterAll(async () => h?.close());

const csv = async (query: string) => (await as(OWNER)(`/app/refunds.csv?range=all${query}`)).text();
const rowOf = (rows: Record<string, string>[], column: string, gid: string) => rows.find((row) => row[column] === gid || gid.endsWith(`/${row[column]}`));

const RAW_BEFORE = [
  "order",
  "order_id",
  "amount",
  "currency",
  "shop_amount",
  "shop_currency",
  "verdict",
  "reason",
  "reason_text",
  "classes",
  "origin",
  "started_at",
  "review",
  "matched_by",
  "api_versions_outside_contract",
  "refund_id",
  "recorded_amount",
  "recorded_currency",
  "resolution_note",
  "resolved_by",
  "settlement_status",
  "money",
  "arn",
  "payout_id",
  "payout_status",
  "exposure_status",
  "exposure_reasons",
  "at_risk_amount",
  "at_risk_currency",
];
const RAW_LIMITS = ["asked_by", "approval", "approved_or_declined_by", "decided_at", "approval_note", "limits", "over_limit"];
/** Where each refund was made (decision 031), after the limits' columns. */
const RAW_MADE = ["made_in", "made_by_user_id", "made_by_app"];
const PEOPLE_LIMITS = [
  "Asked for approval by",
  "Approval",
  "Approved or declined by",
  "Approval decided",
  "Approval note",
  "Limits it went over",
  "Over a limit",
];

describe("the CSV keeps the refund limits' audit", () => {
  it("raw: the approval's columns and over_limit after every column there was, in that order; every row as wide as the header", async () => {
    const text = await csv("&format=raw");
    const lines = readCsv(text);
    expect(lines[0]).toEqual([...RAW_BEFORE, ...RAW_LIMITS, ...RAW_MADE]);
    for (const line of lines) expect(line).toHaveLength(lines[0].length);
    const rows = csvRecords(text);
    expect(rowOf(rows, "refund_id", approvedRefundGid)).toMatchObject({
      asked_by: "Sam Lee",
      approval: "approved",
      approved_or_declined_by: "Ada Lovelace",
      decided_at: decidedAt.toISOString(),
      // What a person typed is text to a spreadsheet, never a formula.
      approval_note: "'=Damaged, photos seen",
      limits: LIMIT,
      over_limit: "",
    });
    expect(rowOf(rows, "refund_id", refundGid(outside.id))).toMatchObject({
      asked_by: "",
      approval: "",
      limits: "",
      over_limit: `Made outside the app by Kit Marlowe, over the shop's limit: ${LIMIT}`,
    });
    expect(rowOf(rows, "refund_id", refundGid(within.id))).toMatchObject({ asked_by: "", approval: "", over_limit: "" });
  });

  it("for people: the same in words at the end, the decision's time in the shop's zone with its offset", async () => {
    const text = await csv("");
    const header = readCsv(text)[0];
    // Where each refund was made comes after them (decision 031).
    expect(header.slice(-PEOPLE_LIMITS.length - 1)).toEqual([...PEOPLE_LIMITS, "Where it was made"]);
    expect(header.slice(0, 4)).toEqual(["Order", "Amount", "Currency", "Verdict"]);
    const rows = csvRecords(text);
    const approved = rowOf(rows, "Refund ID", approvedRefundGid)!;
    expect(approved).toMatchObject({
      "Asked for approval by": "Sam Lee",
      Approval: "Approved",
      "Approved or declined by": "Ada Lovelace",
      "Approval note": "'=Damaged, photos seen",
      "Limits it went over": LIMIT,
      "Over a limit": "",
    });
    expect(approved["Approval decided"]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d$/);
    expect(rowOf(rows, "Refund ID", refundGid(outside.id))!["Over a limit"]).toBe(`Made outside the app by Kit Marlowe, over the shop's limit: ${LIMIT}`);
  });
});
