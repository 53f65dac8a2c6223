import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERDICTS } from "../../app/contracts/schema";
import { dataPath, embeddedFetch } from "../support/embedded";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 26, item 3: the cards and the table cover the same days, and a card opens the table it counts.
let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
const DAY = 86_400_000;

beforeAll(async () => {
  h = await startVerificationHarness("period-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain);
  const refund = async (amount: string, options: { daysAgo?: number; recordedAmount?: string; status?: "FAILURE" } = {}) => {
    const createdAt = new Date(h.clock.ms - (options.daysAgo ?? 0) * DAY);
    const order = h.shop.createOrder({ amount: "100.00", createdAt });
    const made = h.shop.createRefund(order.id, { amount, createdAt, recordedAmount: options.recordedAmount, status: options.status });
    expect((await h.deliver(h.refundDelivery(made))).status).toBe(200);
  };
  // This month: 3 verified, a wrong amount, a gateway failure. Two months ago: 2 verified, a wrong amount.
  for (const amount of ["10.00", "11.00", "12.00"]) await refund(amount);
  await refund("13.00", { recordedAmount: "14.00" });
  await refund("15.00", { status: "FAILURE" });
  for (const amount of ["20.00", "21.00"]) await refund(amount, { daysAgo: 60 });
  await refund("22.00", { daysAgo: 60, recordedAmount: "23.00" });
  await h.settle();
});
afterAll(async () => h.close());

const dashboard = async (query = "") => (await asShop(dataPath(`/app${query}`, "routes/app._index"))).json();
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe("one period on the dashboard", () => {
  it("the cards and the table cover the last 30 days unless dates are chosen, and add up to the same number", async () => {
    const recent = await dashboard();
    expect(recent.filters.range).toBe("30d");
    expect(recent.figures.counts).toMatchObject({ VERIFIED: 3, CONTRADICTED: 1, FAILED: 1 });
    expect([sum(recent.figures.counts), recent.total, recent.rows.length]).toEqual([5, 5, 5]);
    const all = await dashboard("?range=all");
    expect(all.figures.counts).toMatchObject({ VERIFIED: 5, CONTRADICTED: 2, FAILED: 1 });
    expect([sum(all.figures.counts), all.total]).toEqual([8, 8]);
  });

  it("each card opens the table it counts, with the same number", async () => {
    for (const query of ["", "?range=all"]) {
      const { figures } = await dashboard(query);
      for (const verdict of VERDICTS) {
        const table = await dashboard(figures.links[verdict].replace(/^\/app/, ""));
        expect([verdict, query, table.total]).toEqual([verdict, query, figures.counts[verdict]]);
        expect(table.rows.every((row: { status: string }) => row.status === verdict)).toBe(true);
      }
    }
  });

  it("the CSV holds the table's refunds: the same period", async () => {
    const csv = await (await asShop("/app/refunds.csv")).text();
    expect(csv.trim().split("\r\n")).toHaveLength(1 + 5);
  });
});
