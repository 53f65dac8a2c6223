import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import type { FakeRefund } from "../../fake-shopify/shop";
import type { PayoutScheduleView } from "../../fake-shopify/payments";
import { askAboutScopesAgain } from "../../app/shops/payments.server";
import { csvRecords } from "../support/csv";

// Issue 28, what people see: the dashboard's filter "Money not arrived" and its figure. Issue 45
// point 4 (decision 032): late means later than the shop's own payout schedule allows, as Shopify
// answers it with the payments account (daily, weekly, monthly: the payout it gives for the day a
// refund was verified, then 4 business days); manual payouts are never late ("paid out when the
// shop asks"); a schedule not known falls back to 7 days and says so; `money_days` still asks for N days.
//
// The routes run on the wall clock, whatever weekday it is: each refund's age is chosen so that
// its answer holds on any day of the week (a daily payout's money is due 9 to 11 days after the
// day it was verified, a weekly one's 9 to 15, a monthly one's 9 to 45).

let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
const DAY = 24 * 3600_000;
const WITH_PAYOUTS = "read_orders,write_orders,read_shopify_payments_accounts,read_shopify_payments_payouts";
type Name = "never" | "old" | "eight" | "recent" | "paid";
const ids = {} as Record<Name, string>;
const FAR = new Date("2100-01-01T00:00:00Z");

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

/** Verified `days` ago by the routes' wall clock; a PENDING one is not read again during the test (its next read is far off). */
async function verifiedAgo(refund: FakeRefund, days: number) {
  const settlement = await settlementOf(refund);
  await h.db.settlement.update({
    where: { id: settlement.id },
    data: { startedAt: new Date(Date.now() - days * DAY), ...(settlement.status === "PENDING" ? { nextDueAt: FAR } : {}) },
  });
}

/** The shop's payout schedule becomes `schedule` in Shopify; the app learns it at its next settlement pass (asked again, as after app/scopes_update). */
async function scheduleIs(schedule: PayoutScheduleView | "unreadable") {
  if (schedule === "unreadable") h.shop.payments.payoutSchedule = { interval: "WEEKLY", weeklyAnchor: null, monthlyAnchor: null };
  else h.shop.payments.payoutSchedule = schedule;
  await askAboutScopesAgain(h.db, h.domain);
  await h.worker.runSettlements();
  expect(await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } })).toMatchObject({ paymentsAccount: "active" });
}

beforeAll(async () => {
  h = await startVerificationHarness("late-money-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain);
  await h.db.session.updateMany({ where: { shop: h.domain }, data: { scope: WITH_PAYOUTS } });
  // Never in the ledger within the contract's 35 days: UNVERIFIABLE.
  const never = await verifiedRefund("7.00");
  h.shop.payments.withhold(never.transactionIds[0]);
  expect(await untilDecided(never)).toMatchObject({ status: "UNVERIFIABLE" });
  // Then four more: one paid out, three whose ledger entry has not come (still PENDING).
  const old = await verifiedRefund("8.00");
  const eight = await verifiedRefund("8.50");
  const recent = await verifiedRefund("9.00");
  for (const refund of [old, eight, recent]) h.shop.payments.withhold(refund.transactionIds[0]);
  const paid = await verifiedRefund("10.00");
  expect(await untilDecided(paid)).toMatchObject({ status: "VERIFIED", money: "paid" });
  for (const refund of [old, eight, recent]) expect(await settlementOf(refund)).toMatchObject({ status: "PENDING" });
  // Verified 50, 20, 8 and 2 days ago (by the routes' wall clock).
  await verifiedAgo(never, 50);
  await verifiedAgo(old, 20);
  await verifiedAgo(eight, 8);
  await verifiedAgo(recent, 2);
  for (const [name, refund] of Object.entries({ never, old, eight, recent, paid })) ids[name as Name] = (await operationFor(h.db, refundGid(refund.id))).id;
});
afterAll(async () => h.close());

async function dashboard(query = "") {
  const response = await asShop(dataPath(`/app${query}`, "routes/app._index"));
  expect(response.status).toBe(200);
  return response.json();
}
const idsOf = (rows: { id: string }[]) => rows.map((row) => row.id).sort();
const sorted = (...names: Name[]) => names.map((name) => ids[name]).sort();

describe("money not arrived, by the shop's payout schedule", () => {
  it("the settlement pass stores the schedule Shopify answers with the account, in the same request", async () => {
    const stats = h.app.shopify.api(h.domain).stats.byOperation;
    const before = { account: stats.PaymentsAccount ?? 0, all: Object.values(stats).reduce((a, b) => a + b, 0) };
    await scheduleIs({ interval: "WEEKLY", weeklyAnchor: "FRIDAY", monthlyAnchor: null });
    const stored = JSON.parse((await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } })).payoutSchedule ?? "null");
    expect(stored).toEqual({ interval: "WEEKLY", weeklyAnchor: "FRIDAY", monthlyAnchor: null, country: "US" });
    // One read of the account (and the scopes it needs); nothing read per refund.
    expect((stats.PaymentsAccount ?? 0) - before.account).toBe(1);
    expect(Object.values(stats).reduce((a, b) => a + b, 0) - before.all).toBe(2);
  });

  it("weekly: the refunds past the shop's weekly payout and 4 business days; not one 8 days old, which the 7 days counted", async () => {
    await scheduleIs({ interval: "WEEKLY", weeklyAnchor: "FRIDAY", monthlyAnchor: null });
    const { figures } = await dashboard("?range=today");
    expect(figures.moneyLate).toEqual({
      count: 2,
      by: "schedule",
      words: "money not arrived 4 business days after the shop's weekly payout (Fridays)",
      link: "/app?range=all&money=late",
      shown: true,
    });
    const table = await dashboard(figures.moneyLate.link.replace(/^\/app/, ""));
    expect(table.filters.moneyLate).toMatchObject({ by: "schedule", words: figures.moneyLate.words });
    expect(idsOf(table.rows)).toEqual(sorted("never", "old"));
    expect(table.total).toBe(figures.moneyLate.count);
  });

  it("daily: the same refunds, said of the daily payout", async () => {
    await scheduleIs({ interval: "DAILY", weeklyAnchor: null, monthlyAnchor: null });
    const { figures } = await dashboard();
    expect(figures.moneyLate).toMatchObject({ count: 2, by: "schedule", words: "money not arrived 4 business days after the shop's daily payout" });
    expect(idsOf((await dashboard("?money=late&range=all")).rows)).toEqual(sorted("never", "old"));
  });

  it("monthly: the one verified 50 days ago is late; the ones of 8 and 2 days are not", async () => {
    await scheduleIs({ interval: "MONTHLY", weeklyAnchor: null, monthlyAnchor: 31 });
    const { figures } = await dashboard();
    expect(figures.moneyLate).toMatchObject({
      by: "schedule",
      words: "money not arrived 4 business days after the shop's monthly payout (the 31st, or the month's last day)",
    });
    const late = await dashboard("?money=late&range=all");
    // The one verified 20 days ago may or may not have reached the 31st's payout yet, by the date of this run.
    expect(idsOf(late.rows)).toContain(ids.never);
    expect(idsOf(late.rows)).not.toContain(ids.eight);
    expect(idsOf(late.rows)).not.toContain(ids.recent);
    expect(idsOf(late.rows)).not.toContain(ids.paid);
    expect(late.total).toBe(figures.moneyLate.count);
  });

  it("manual: nothing is called late; the money waiting for a payout is listed, in words that say why", async () => {
    await scheduleIs({ interval: "MANUAL", weeklyAnchor: null, monthlyAnchor: null });
    const { figures } = await dashboard();
    expect(figures.moneyLate).toMatchObject({
      count: 4,
      by: "manual",
      words: "money waiting for a payout (the shop's payouts are manual: paid out when the shop asks)",
    });
    const waiting = await dashboard("?money=late&range=all");
    expect(idsOf(waiting.rows)).toEqual(sorted("never", "old", "eight", "recent"));
    expect(waiting.filters.moneyLate).toMatchObject({ by: "manual", verifiedBefore: null });
  });

  it("an error where Shopify's answer has the schedule is no answer: the schedule the app knows stays, never the 7 days' fallback", async () => {
    await scheduleIs({ interval: "MONTHLY", weeklyAnchor: null, monthlyAnchor: 15 });
    const known = (await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } })).payoutSchedule;
    // Shopify could not resolve the month's day: null in the answer, with an error at its path.
    h.app.shopify.inject({
      kind: "field_error",
      path: ["shopifyPaymentsAccount", "payoutSchedule", "monthlyAnchor"],
      code: "INTERNAL_SERVER_ERROR",
      operationName: "PaymentsAccount",
    });
    await askAboutScopesAgain(h.db, h.domain);
    await h.worker.runSettlements();
    expect(h.app.shopify.pendingFaults()).toBe(0);
    expect(await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } })).toMatchObject({ paymentsAccount: "active", payoutSchedule: known });
    expect((await dashboard()).figures.moneyLate).toMatchObject({ by: "schedule" });
  });

  it("a schedule Shopify answers without what the rule needs: the 7 days, said to be the fallback", async () => {
    await scheduleIs("unreadable");
    expect((await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } })).payoutSchedule).toBeNull();
    const { figures } = await dashboard();
    expect(figures.moneyLate).toMatchObject({
      count: 3,
      by: "fallback",
      words: "money not arrived after 7 days (the shop's payout schedule is not known yet)",
    });
    expect(idsOf((await dashboard("?money=late&range=all")).rows)).toEqual(sorted("never", "old", "eight"));
  });
});

describe("money not arrived after N days (the URL's money_days)", () => {
  it("N comes from the URL whatever the schedule: after 30 days the two old ones; after 1 day the recent one too", async () => {
    await scheduleIs({ interval: "WEEKLY", weeklyAnchor: "FRIDAY", monthlyAnchor: null });
    const month = await dashboard("?money=late&money_days=30&range=all");
    expect(month.filters.moneyLate).toMatchObject({ by: "days", days: 30, words: "money not arrived after 30 days" });
    // PENDING past 30 days, or never settled (UNVERIFIABLE).
    expect(idsOf(month.rows)).toEqual(sorted("never"));
    expect(month.total).toBe(1);
    expect(idsOf((await dashboard("?money=late&money_days=1&range=all")).rows)).toEqual(sorted("never", "old", "eight", "recent"));
    // Not a number of days: the shop's schedule.
    expect((await dashboard("?money=late&money_days=soon&range=all")).filters.moneyLate).toMatchObject({ by: "schedule" });
    // Every refund of the shop without the filter.
    expect(idsOf((await dashboard("?range=all")).rows)).toEqual(Object.values(ids).sort());
  });

  it("the CSV of the filtered table holds the same refunds", async () => {
    const rows = csvRecords(await (await asShop("/app/refunds.csv?money=late&range=all&format=raw")).text());
    expect(rows.map((row) => row.settlement_status).sort()).toEqual(["PENDING", "UNVERIFIABLE"]);
  });
});
