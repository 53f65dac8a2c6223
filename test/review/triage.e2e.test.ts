import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import { REFUND_HISTORY } from "../../app/contracts/registry.server";
import { openOperation } from "../../app/verification/operations.server";

// Issue 26, item 2: the review queue puts what happens now first and says when each refund was made.
let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
const DAY = 86_400_000;
const live: string[] = [];
let historyId: string;

beforeAll(async () => {
  h = await startVerificationHarness("triage-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain, "101");
  // Three live problems, made 3, 2 and 1 days ago (a wrong amount each), delivered in that order.
  for (const daysAgo of [3, 2, 1]) {
    const createdAt = new Date(h.clock.ms - daysAgo * DAY);
    const order = h.shop.createOrder({ amount: "80.00", createdAt });
    const refund = h.shop.createRefund(order.id, { amount: "10.00", recordedAmount: "11.00", createdAt });
    await h.deliver(h.refundDelivery(refund));
    live.push(refundGid(refund.id));
  }
  await h.settle();
  // One from the shop's history, 60 days old, decided by the install's backfill just now.
  const gid = "gid://shopify/Refund/4242";
  await openOperation(
    h.db,
    REFUND_HISTORY,
    {
      shop: h.domain,
      refundGid: gid,
      orderGid: "gid://shopify/Order/4243",
      origin: "backfill",
      amount: "9.00",
      currency: "USD",
      startedAt: new Date(h.clock.ms - 60 * DAY),
    },
    h.clock.now(),
    null,
  );
  const history = await h.db.operation.update({
    where: { shop_refundGid: { shop: h.domain, refundGid: gid } },
    data: { status: "CONTRADICTED", reason: "refund_amount_mismatch", decidedAt: h.clock.now(), reviewState: "open", escalate: true },
  });
  historyId = history.id;
});
afterAll(async () => h.close());

const queue = async (query = "") => (await asShop(dataPath(`/app/review${query}`, "routes/app.review"))).json();

describe("the review queue", () => {
  it("shows refunds since install newest first, the shop's history in a tab of its own", async () => {
    const open = await queue();
    const ids = await Promise.all(live.map(async (gid) => (await operationFor(h.db, gid)).id));
    expect(open.items.map((item: { id: string }) => item.id)).toEqual([...ids].reverse());
    expect(open.counts).toMatchObject({ open: 3, history: 1, resolved: 0 });
    const history = await queue("?view=history");
    expect([history.view, history.items.map((item: { id: string }) => item.id), history.total]).toEqual(["history", [historyId], 1]);
  });

  it("says on every item when the refund was made, not only when it was checked", async () => {
    const page = await (await asShop("/app/review?view=history")).text();
    const made = /data-refund-made[^>]*>.*?Refund made (?:<!-- -->)?<time dateTime="([^"]+)"/s.exec(page);
    const history = await h.db.operation.findUniqueOrThrow({ where: { id: historyId } });
    expect(made?.[1]).toBe(history.startedAt.toISOString());
  });

  it("the evidence page names the person who resolved it, as the queue does", async () => {
    // Shopify names staff member 303; the app learns it from their online session, at their first request.
    h.app.shopify.addStaff(h.domain, { id: "303", firstName: "Ada", lastName: "Lovelace" });
    const item = (await queue()).items[0];
    const answer = await embeddedFetch(
      h.app.url,
      h.domain,
      "303",
    )(dataPath("/app/review", "routes/app.review"), {
      method: "POST",
      body: new URLSearchParams({ intent: "resolve", id: item.id, revision: String(item.revision), note: "Refunded the difference" }),
    });
    expect(answer.status).toBe(200);
    const detail = await (await asShop(dataPath(`/app/refunds/${item.id}`, "routes/app.refunds.$id"))).json();
    expect(detail.timeline.find((t: { kind: string }) => t.kind === "review").title).toBe("Resolved by Ada Lovelace");
  });
});
