import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import type { FakeRefund } from "../../fake-shopify/shop";
import { csvRecords } from "../support/csv";

// Issue 28, what people see: the dashboard's filter "Money not arrived after N days" and its figure.
// A refund's money is late when its settlement is still PENDING more than N days (7 unless the
// URL says) after the refund was verified, or never settled (UNVERIFIABLE).

let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
const DAY = 24 * 3600_000;
const WITH_PAYOUTS = "read_orders,write_orders,read_shopify_payments_accounts,read_shopify_payments_payouts";
const ids: Record<"never" | "late" | "recent" | "paid", string> = { never: "", late: "", recent: "", paid: "" };

/** A refund of `amount` on a new order paid through Shopify Payments, delivered and VERIFIED at the created level. */
async function verifiedRefund(amount: string): Promise<FakeRefund> {
  const order = h.shop.createOrder({ amount: "100.00", gateway: "shopify_payments" });
  const refund = h.shop.createRefund(order.id, { amount });
  expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
  await h.settle();
  expect((await operationFor(h.db, refundGid(refund.id))).status).toBe("VERIFIED");
  return refund;
}

const settlementOf = (refund: FakeRefund) => h.db.settlement.findFirstOrThrow({ where: { refundGid: refundGid(refund.id) } });

/** Settlement passes, the clock moved to each next due read, until the settlement is decided. */
async function untilDecided(refund: FakeRefund) {
  for (let pass = 0; pass < 500; pass++) {
    await h.worker.runSettlements();
    const settlement = await h.db.settlement.findFirst({ where: { refundGid: refundGid(refund.id) } });
    if (settlement && settlement.status !== "PENDING") return settlement;
    if (!settlement?.nextDueAt) throw new Error(`not followed: ${JSON.stringify(settlement)}`);
    if (settlement.nextDueAt.getTime() > h.clock.ms) h.clock.ms = settlement.nextDueAt.getTime();
  }
  throw new Error("untilDecided: too many passes");
}

beforeAll(async () => {
  h = await startVerificationHarness("late-money-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain);
  await h.db.session.updateMany({ where: { shop: h.domain }, data: { scope: WITH_PAYOUTS } });
  // Never in the ledger within the contract's 35 days: UNVERIFIABLE.
  const never = await verifiedRefund("7.00");
  h.shop.payments.withhold(never.transactionIds[0]);
  expect(await untilDecided(never)).toMatchObject({ status: "UNVERIFIABLE" });
  // Then three more: one paid out, two whose ledger entry has not come (still PENDING).
  const late = await verifiedRefund("8.00");
  const recent = await verifiedRefund("9.00");
  h.shop.payments.withhold(late.transactionIds[0]);
  h.shop.payments.withhold(recent.transactionIds[0]);
  const paid = await verifiedRefund("10.00");
  expect(await untilDecided(paid)).toMatchObject({ status: "VERIFIED", money: "paid" });
  expect(await settlementOf(late)).toMatchObject({ status: "PENDING" });
  expect(await settlementOf(recent)).toMatchObject({ status: "PENDING" });
  // The late one was verified 8 days ago, the recent one 2 days ago (by the routes' wall clock).
  await h.db.settlement.update({ where: { id: (await settlementOf(late)).id }, data: { startedAt: new Date(Date.now() - 8 * DAY) } });
  await h.db.settlement.update({ where: { id: (await settlementOf(recent)).id }, data: { startedAt: new Date(Date.now() - 2 * DAY) } });
  for (const [name, refund] of Object.entries({ never, late, recent, paid }))
    ids[name as keyof typeof ids] = (await operationFor(h.db, refundGid(refund.id))).id;
});
afterAll(async () => h.close());

async function dashboard(query = "") {
  const response = await asShop(dataPath(`/app${query}`, "routes/app._index"));
  expect(response.status).toBe(200);
  return response.json();
}
const idsOf = (rows: { id: string }[]) => rows.map((row) => row.id).sort();

describe("money not arrived after N days", () => {
  it("the filter lists the refunds whose money is late (PENDING past 7 days, or never settled), not the paid or the recent one", async () => {
    const late = await dashboard("?money=late&range=all");
    expect(late.filters.moneyLate).toMatchObject({ days: 7 });
    expect(idsOf(late.rows)).toEqual([ids.never, ids.late].sort());
    expect(late.total).toBe(2);
    // Every refund of the shop without the filter.
    expect(idsOf((await dashboard("?range=all")).rows)).toEqual(Object.values(ids).sort());
  });

  it("N comes from the URL: after 30 days only the never-settled one; after 1 day the recent one too", async () => {
    const month = await dashboard("?money=late&money_days=30&range=all");
    expect(month.filters.moneyLate).toMatchObject({ days: 30 });
    expect(idsOf(month.rows)).toEqual([ids.never]);
    expect(month.total).toBe(1);
    expect(idsOf((await dashboard("?money=late&money_days=1&range=all")).rows)).toEqual([ids.never, ids.late, ids.recent].sort());
    // Not a number of days: the default 7.
    expect((await dashboard("?money=late&money_days=soon&range=all")).filters.moneyLate).toMatchObject({ days: 7 });
  });

  it("the figure counts them for the shop, whatever the period, and opens the table it counts", async () => {
    const { figures } = await dashboard("?range=today");
    expect(figures.moneyLate).toEqual({ count: 2, days: 7, link: "/app?range=all&money=late", shown: true });
    const table = await dashboard(figures.moneyLate.link.replace(/^\/app/, ""));
    expect(table.total).toBe(figures.moneyLate.count);
    expect(idsOf(table.rows)).toEqual([ids.never, ids.late].sort());
  });

  it("the CSV of the filtered table holds the same refunds", async () => {
    const rows = csvRecords(await (await asShop("/app/refunds.csv?money=late&range=all&format=raw")).text());
    expect(rows.map((row) => row.settlement_status).sort()).toEqual(["PENDING", "UNVERIFIABLE"]);
  });
});
