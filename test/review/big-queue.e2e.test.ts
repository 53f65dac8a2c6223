import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, embeddedFetch } from "../support/embedded";
import { storeRefundDeliveries } from "../support/stored-deliveries";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";
import { resolveReview } from "../../app/review/review.server";

// Issue 42, item 5: the review queue of a shop with more open duplicates than SQLite binds in one statement.
const ORDERS = 600;
const DUPLICATES = 2 * ORDERS;
let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;

beforeAll(async () => {
  h = await startVerificationHarness("big-queue-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain, "101");
  // Each order refunded three times, for the same amount, within a second: the second and the third are duplicates,
  // one item of the queue (a pair).
  await storeRefundDeliveries(h.app.shopify, h.app.databaseUrl, [h.domain], ORDERS, new Date(h.clock.ms), 3);
  await h.settle();
});
afterAll(async () => h.close());

const queue = async (query = "") => {
  const response = await asShop(dataPath(`/app/review${query}`, "routes/app.review"));
  expect(response.status).toBe(200);
  return response.json();
};

describe(`a review queue with ${DUPLICATES.toLocaleString("en-US")} open duplicates`, () => {
  it("answers on every tab, each pair one item, also once they are all resolved", async () => {
    expect(await h.db.operation.count({ where: { shop: h.domain, status: "CONTRADICTED", reviewState: "open" } })).toBe(DUPLICATES);
    const open = await queue();
    expect(open.counts).toMatchObject({ open: ORDERS, history: 0, resolved: 0 });
    expect(open.items.length).toBeGreaterThan(0);
    expect(open.items.map((item: { pair: unknown[] | null }) => item.pair?.length)).toEqual(open.items.map(() => 2));
    expect((await queue("?view=history")).counts.open).toBe(ORDERS);

    // Resolved, pair by pair, as one person would (through the service the form posts to, without 1,200 requests).
    for (let page = await queue("?size=100"); page.items.length; page = await queue("?size=100")) {
      for (const item of page.items as { id: string; revision: number }[]) {
        expect(
          await resolveReview(h.db, { shop: h.domain, id: item.id, revision: item.revision, note: "Refunded twice: reversed", actor: "303" }, h.clock.now()),
        ).toMatchObject({ resolved: 2 });
      }
    }
    const resolved = await queue("?view=resolved");
    expect(resolved.counts).toMatchObject({ open: 0, resolved: ORDERS });
    expect(resolved.items[0].resolution).toMatchObject({ note: "Refunded twice: reversed" });
  });
});
