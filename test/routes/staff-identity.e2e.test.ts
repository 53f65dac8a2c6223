import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffDirectory } from "../../app/staff/identity.server";
import { dataPath, embeddedFetch } from "../support/embedded";
import { refundGid, startVerificationHarness, operationFor, type VerificationHarness } from "../support/verification";

// Who makes a request, as Shopify says it: the session token's user, and their online session from token exchange.
let h: VerificationHarness;
let asOwner: ReturnType<typeof embeddedFetch>;
let asAda: ReturnType<typeof embeddedFetch>;
const escalated: string[] = [];
const DAY = 86_400_000;

beforeAll(async () => {
  h = await startVerificationHarness("identity-shop.myshopify.com");
  h.app.shopify.addStaff(h.domain, { id: "303", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
  asOwner = embeddedFetch(h.app.url, h.domain, "42");
  asAda = embeddedFetch(h.app.url, h.domain, "303");
  // Two wrong amounts: two items on the review queue.
  for (let i = 0; i < 2; i++) {
    const order = h.shop.createOrder({ amount: "60.00" });
    const refund = h.shop.createRefund(order.id, { amount: "10.00", recordedAmount: "12.00" });
    await h.deliver(h.refundDelivery(refund));
    escalated.push(refundGid(refund.id));
  }
  await h.settle();
});
afterAll(async () => h.close());

/** The fake's requests that were not Admin API queries: token exchanges. */
const tokenExchanges = () => h.app.shopify.api(h.domain).stats.requests - h.app.shopify.api(h.domain).stats.graphqlRequests;
const onlineRow = (userId: string) => h.db.session.findUnique({ where: { id: `${h.domain}_${userId}` } });
const queue = async (who: ReturnType<typeof embeddedFetch>, query = "") => (await who(dataPath(`/app/review${query}`, "routes/app.review"))).json();

describe("a staff member's request", () => {
  it("by the shop's owner stores their online session: Shopify's name, email and ownership, for Shopify's day", async () => {
    expect(await onlineRow("42")).toBeNull();
    expect((await asOwner(dataPath("/app", "routes/app._index"))).status).toBe(200);
    const row = await onlineRow("42");
    expect(row).toMatchObject({
      isOnline: true,
      userId: 42n,
      firstName: "Dana",
      lastName: "Whitfield",
      email: "dana.whitfield@example.com",
      accountOwner: true,
    });
    expect(row!.expires!.getTime() - Date.now()).toBeGreaterThan(DAY - 120_000);
    expect(row!.expires!.getTime() - Date.now()).toBeLessThanOrEqual(DAY);
    // The shop's offline session is still the one background work uses.
    expect(await h.db.session.findUnique({ where: { id: `offline_${h.domain}` } })).toMatchObject({ isOnline: false, userId: null });
  });

  it("by another staff member stores theirs: not the owner; the directory lists the owner first", async () => {
    const exchanges = tokenExchanges();
    expect((await asAda(dataPath("/app/review", "routes/app.review"))).status).toBe(200);
    // What a person's first request costs: the library exchanges their session token for the shop's offline token, then for theirs.
    expect(tokenExchanges() - exchanges).toBe(2);
    expect(await onlineRow("303")).toMatchObject({ isOnline: true, userId: 303n, firstName: "Ada", lastName: "Lovelace", accountOwner: false });
    expect(await staffDirectory(h.db, h.domain)).toEqual([
      { userId: "42", name: "Dana Whitfield", accountOwner: true, email: "dana.whitfield@example.com" },
      { userId: "303", name: "Ada Lovelace", accountOwner: false, email: "ada@example.com" },
    ]);
  });

  it("is exchanged for once: a second request of the same person uses their online session", async () => {
    const before = [tokenExchanges(), await onlineRow("303")] as const;
    expect((await asAda(dataPath("/app", "routes/app._index"))).status).toBe(200);
    expect([tokenExchanges(), await onlineRow("303")]).toEqual(before);
  });
});

describe("people's names on the screens", () => {
  it("the review queue and the evidence page name who resolved a refund as Shopify names them", async () => {
    const op = await operationFor(h.db, escalated[0]);
    expect((await queue(asAda)).items.map((i: { id: string }) => i.id)).toContain(op.id);
    const answer = await asAda(dataPath("/app/review", "routes/app.review"), {
      method: "POST",
      body: new URLSearchParams({ intent: "resolve", id: op.id, revision: String(op.revision), note: "Refunded the difference" }),
    });
    expect(answer.status).toBe(200);
    const resolved = await queue(asOwner, "?view=resolved");
    expect(resolved.items.find((i: { id: string }) => i.id === op.id).resolution).toMatchObject({ actor: "303", by: "Ada Lovelace" });
    const detail = await (await asOwner(dataPath(`/app/refunds/${op.id}`, "routes/app.refunds.$id"))).json();
    expect(detail.timeline.find((t: { kind: string }) => t.kind === "review").title).toBe("Resolved by Ada Lovelace");
  });

  it("a person the test never introduced is named as Shopify names them, not 'Staff member 101'", async () => {
    const asSomeone = embeddedFetch(h.app.url, h.domain, "101");
    const op = await operationFor(h.db, escalated[1]);
    const answer = await asSomeone(dataPath("/app/review", "routes/app.review"), {
      method: "POST",
      body: new URLSearchParams({ intent: "resolve", id: op.id, revision: String(op.revision), note: "Called the customer" }),
    });
    expect(answer.status).toBe(200);
    const someone = h.app.shopify.shop(h.domain).staff.member("101")!;
    const detail = await (await asOwner(dataPath(`/app/refunds/${op.id}`, "routes/app.refunds.$id"))).json();
    expect(detail.timeline.find((t: { kind: string }) => t.kind === "review").title).toBe(`Resolved by ${someone.firstName} ${someone.lastName}`);
    expect(await onlineRow("101")).toMatchObject({ accountOwner: false });
  });
});
