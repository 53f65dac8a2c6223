import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 26: the refunds of one duplicate pair are one review item, resolved once. Under contract
// 1.2.0 only the second of a pair is CONTRADICTED as the duplicate; both are in the queue when the
// first is there for a reason of its own (Shopify recorded another amount for both), or when a
// refund was made three times (the second and the third are both duplicates, the third names the
// second): until now two items of one amount on one order, each resolved on its own.

let h: VerificationHarness;
let asAda: ReturnType<typeof embeddedFetch>;
let asGrace: ReturnType<typeof embeddedFetch>;

interface PairMember {
  id: string;
  refundId: string;
  amountDisplay: string;
  startedAt: string;
}
interface QueueItem {
  id: string;
  revision: number;
  orderName: string | null;
  pair: PairMember[] | null;
  resolution: { note: string | null; by: string } | null;
}

beforeAll(async () => {
  h = await startVerificationHarness("pair-shop.myshopify.com");
  asAda = embeddedFetch(h.app.url, h.domain, "303");
  asGrace = embeddedFetch(h.app.url, h.domain, "404");
  // Shopify names them: the app learns their names from their online sessions, at their first request.
  h.app.shopify.addStaff(h.domain, { id: "303", firstName: "Ada", lastName: "Lovelace" });
  h.app.shopify.addStaff(h.domain, { id: "404", firstName: "Grace", lastName: "Hopper" });
});
afterAll(async () => h.close());

const queue = async (query = "") => (await asAda(dataPath(`/app/review${query}`, "routes/app.review"))).json();
const resolveIn = (as: ReturnType<typeof embeddedFetch>, item: { id: string; revision: number }, note: string) =>
  as(dataPath("/app/review", "routes/app.review"), {
    method: "POST",
    body: new URLSearchParams({ intent: "resolve", id: item.id, revision: String(item.revision), note }),
  });

/** Refunds of one amount on a new order, `secondsApart` each, delivered and decided; their operations, oldest first. */
async function refundsMadeTogether(times: number, options: { amount: string; recordedAmount?: string }) {
  const order = h.shop.createOrder({ amount: "100.00" });
  const start = h.clock.ms;
  const refunds = [];
  for (let i = 0; i < times; i++) refunds.push(h.shop.createRefund(order.id, { ...options, createdAt: new Date(start + i * 3000) }));
  for (const refund of refunds) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
  await h.settle();
  const ops = await Promise.all(refunds.map((refund) => operationFor(h.db, refundGid(refund.id))));
  return { order, ops };
}

async function resolvedEvents(ids: string[]) {
  return h.db.reviewEvent.findMany({ where: { operationId: { in: ids }, action: "resolved" }, orderBy: { operationId: "asc" } });
}

describe("a duplicate pair in the review queue", () => {
  it("is one item naming both refunds of the order, and the counts say one", async () => {
    // Asked 10.00 twice, Shopify recorded 11.00 twice: the first is a wrong amount, the second a wrong amount and its duplicate.
    const { order, ops } = await refundsMadeTogether(2, { amount: "10.00", recordedAmount: "11.00" });
    expect(ops.map((op) => [op.status, op.reviewState])).toEqual([
      ["CONTRADICTED", "open"],
      ["CONTRADICTED", "open"],
    ]);
    const open = await queue();
    const items: QueueItem[] = open.items.filter((item: QueueItem) => item.orderName === order.name);
    expect(items).toHaveLength(1);
    expect(items[0].pair?.map((member) => member.id)).toEqual(ops.map((op) => op.id));
    expect(items[0].pair?.map((member) => member.refundId)).toEqual(ops.map((op) => op.refundGid.split("/").pop()));
    expect(open.counts.open).toBe(open.items.length);
    expect(open.total).toBe(open.items.length);
    // The page says it in words: the order by its name, both refunds with their amounts.
    const page = await (await asAda("/app/review")).text();
    const card = page.slice(page.indexOf(`data-review-item="${items[0].id}"`));
    expect(card).toContain(order.name);
    expect(card.match(/data-pair-refund=/g)).toHaveLength(2);
    expect(card).toContain(`2 refunds of $10.00 USD on ${order.name} were made within 10 minutes of each other`);
    expect(card).toContain("3 seconds after the one above");
    expect(page).toContain("Needs review (1)");
  });

  it("resolving it resolves both refunds, each once, with the person's note", async () => {
    const item: QueueItem = (await queue()).items[0];
    expect((await resolveIn(asAda, item, "Refunded once; the second was reversed")).status).toBe(200);
    const ids = item.pair!.map((member) => member.id);
    const ops = await h.db.operation.findMany({ where: { id: { in: ids } } });
    expect(ops.map((op) => op.reviewState)).toEqual(["resolved", "resolved"]);
    const events = await resolvedEvents(ids);
    expect(events.map((e) => [e.note, e.actor])).toEqual([
      ["Refunded once; the second was reversed", "303"],
      ["Refunded once; the second was reversed", "303"],
    ]);
    const after = await queue();
    expect([after.items.length, after.counts.open]).toEqual([0, 0]);
  });

  it("a refund made three times: the second and the third (which names the second) are one item", async () => {
    const { ops } = await refundsMadeTogether(3, { amount: "40.00" });
    expect(ops.map((op) => [op.status, op.reviewState])).toEqual([
      ["VERIFIED", "none"],
      ["CONTRADICTED", "open"],
      ["CONTRADICTED", "open"],
    ]);
    const open = await queue();
    expect(open.items.map((item: QueueItem) => item.pair?.map((member) => member.id) ?? [item.id])).toEqual([[ops[1].id, ops[2].id]]);
    expect([open.counts.open, open.total]).toEqual([1, 1]);
    // Its sentence says the two repeat the first (verified, not in the item), not that two refunds were made.
    expect(open.items[0].pairRepeatsEarlier).toBe(true);
  });

  it("two people resolving it at the same instant: one wins, the other is told who and keeps their note; each refund resolved once", async () => {
    const item: QueueItem = (await queue()).items[0];
    const ids = item.pair!.map((member) => member.id);
    const before = await h.db.operation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
    const answers = await Promise.all([resolveIn(asAda, item, "Ada: reversed the third"), resolveIn(asGrace, item, "Grace: reversed the third")]);
    const statuses = answers.map((answer) => answer.status);
    expect([...statuses].sort()).toEqual([200, 409]);
    const winner = statuses[0] === 200 ? "Ada Lovelace" : "Grace Hopper";
    const lost = await answers[statuses.indexOf(409)].json();
    expect(lost.resolvedBy).toBe(winner);
    expect(lost.resolvedNote).toBe(`${winner.split(" ")[0]}: reversed the third`);
    const after = await h.db.operation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
    expect(after.map((op) => [op.reviewState, op.revision])).toEqual(before.map((op) => ["resolved", op.revision + 1]));
    const events = await resolvedEvents(ids);
    expect(events.map((e) => [e.operationId, e.note])).toEqual([...ids].sort().map((id) => [id, `${winner.split(" ")[0]}: reversed the third`]));
  });

  it("the evidence page of either refund resolves the pair, and a resolve from the queue at the same instant loses to it or wins it whole", async () => {
    const { ops } = await refundsMadeTogether(2, { amount: "7.00", recordedAmount: "8.00" });
    const item: QueueItem = (await queue()).items[0];
    expect(item.pair?.map((member) => member.id)).toEqual(ops.map((op) => op.id));
    const second = await h.db.operation.findUniqueOrThrow({ where: { id: ops[1].id } });
    const evidence = await (await asGrace(dataPath(`/app/refunds/${second.id}`, "routes/app.refunds.$id"))).json();
    expect(evidence.pairedWith.map((other: { id: string }) => other.id)).toEqual([ops[0].id]);
    const answers = await Promise.all([
      resolveIn(asAda, item, "Ada from the queue"),
      asGrace(dataPath(`/app/refunds/${second.id}`, "routes/app.refunds.$id"), {
        method: "POST",
        body: new URLSearchParams({ intent: "resolve", revision: String(second.revision), note: "Grace from the evidence page" }),
      }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const events = await resolvedEvents(ops.map((op) => op.id));
    expect(events).toHaveLength(2);
    expect(new Set(events.map((e) => e.actor)).size).toBe(1);
    const reloaded = await h.db.operation.findMany({ where: { id: { in: ops.map((op) => op.id) } } });
    expect(reloaded.map((op) => op.reviewState)).toEqual(["resolved", "resolved"]);
  });

  it("under Resolved, the refunds one resolve decided are one item with its note; a pair resolved refund by refund (before pairs were one item) stays two", async () => {
    // Stored as the app did before a pair was one item: each refund of the pair resolved on its own, with its own note.
    const { ops } = await refundsMadeTogether(2, { amount: "5.00", recordedAmount: "6.00" });
    for (const [i, op] of ops.entries()) {
      await h.db.operation.update({ where: { id: op.id }, data: { reviewState: "resolved", revision: { increment: 1 } } });
      await h.db.reviewEvent.create({
        data: { operationId: op.id, shop: h.domain, action: "resolved", note: `refund ${i + 1} on its own`, actor: "303", createdAt: new Date(h.clock.ms + i) },
      });
    }
    const resolved = await queue("?view=resolved");
    const items: QueueItem[] = resolved.items;
    expect(items.filter((item) => item.pair).map((item) => [item.pair!.length, item.resolution?.note])).toEqual([
      [2, expect.stringMatching(/^(Ada from the queue|Grace from the evidence page)$/)],
      [2, expect.stringMatching(/^(Ada|Grace): reversed the third$/)],
      [2, "Refunded once; the second was reversed"],
    ]);
    expect(items.filter((item) => !item.pair).map((item) => [item.id, item.resolution?.note])).toEqual([
      [ops[1].id, "refund 2 on its own"],
      [ops[0].id, "refund 1 on its own"],
    ]);
    expect([resolved.counts.resolved, resolved.total]).toEqual([5, 5]);
    const page = await (await asAda("/app/review?view=resolved")).text();
    expect(page).toContain("Resolved (5)");
    expect(page).toContain("5 resolved items");
  });
});
