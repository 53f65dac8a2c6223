import { createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { disputeWebhookBody, signBody, TOPIC_PATHS } from "../../fake-shopify/webhooks";
import { TEST_APP } from "../support/credentials";
import { graphql, setup, SHOP } from "./support";

const T0 = Date.parse("2026-12-01T10:00:00Z");
const DAY = 86_400_000;

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const servers: { close: () => Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The app's side: every delivery the fake sends, as it arrived. */
async function app() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => (received.push({ path: req.url ?? "", headers: req.headers, body }), res.end("ok")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return { received, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

async function subscribed(scopes = ["read_shopify_payments_disputes"]) {
  const harness = setup();
  harness.shopify.now = () => new Date(T0);
  for (const scope of scopes) harness.shop.grantedScopes.add(scope);
  const target = await app();
  harness.shopify.webhookTarget = { appUrl: target.url };
  return { ...harness, received: target.received };
}

describe("the disputes/create and disputes/update bodies", () => {
  it("are the REST Dispute resource: bare-number ids with all their digits, lowercase enums, the amount in its currency, REST timestamps", () => {
    const { shop } = setup();
    const order = shop.createOrder({ amount: "100.00" });
    const dispute = shop.createDispute(order.id, { amount: "11.50", reason: "SUBSCRIPTION_CANCELLED", initiatedAt: new Date(T0) });
    const body = disputeWebhookBody(shop, dispute);
    expect(body.startsWith(`{"id":${dispute.id},"order_id":${order.id},`)).toBe(true);
    expect(JSON.parse(body)).toEqual({
      id: expect.any(Number),
      order_id: expect.any(Number),
      type: "chargeback",
      amount: "11.50",
      currency: "USD",
      reason: "subscription_canceled",
      network_reason_code: "13.2",
      status: "needs_response",
      evidence_due_by: "2026-12-08T10:00:00+00:00",
      evidence_sent_on: null,
      finalized_on: null,
      initiated_at: "2026-12-01T10:00:00+00:00",
    });
    shop.updateDispute(dispute.id, { status: "LOST", finalizedOn: new Date(T0 + 30 * DAY) });
    expect(JSON.parse(disputeWebhookBody(shop, dispute))).toMatchObject({ status: "lost", finalized_on: "2026-12-31T10:00:00+00:00" });
    expect(() => disputeWebhookBody(setup().shop, dispute)).toThrow(/not one of/);
  });

  it("have their paths in TOPIC_PATHS", () => {
    expect(TOPIC_PATHS["disputes/create"]).toBe("/webhooks/disputes/create");
    expect(TOPIC_PATHS["disputes/update"]).toBe("/webhooks/disputes/update");
  });
});

describe("dispute deliveries", () => {
  it("a shop that granted read_shopify_payments_disputes: disputes/create when it opens, disputes/update when it changes, signed like any other", async () => {
    const { shopify, shop, received } = await subscribed();
    const order = shop.createOrder({ amount: "100.00" });
    const dispute = shop.createDispute(order.id);
    await shopify.flushWebhooks();
    shop.updateDispute(dispute.id, { status: "WON" });
    await shopify.flushWebhooks();
    expect(received.map((r) => [r.path, r.headers["x-shopify-topic"], JSON.parse(r.body).status])).toEqual([
      ["/webhooks/disputes/create", "disputes/create", "needs_response"],
      ["/webhooks/disputes/update", "disputes/update", "won"],
    ]);
    for (const r of received) {
      expect(r.headers["x-shopify-shop-domain"]).toBe(SHOP);
      expect(r.headers["x-shopify-hmac-sha256"]).toBe(signBody(r.body, TEST_APP.secret));
      expect(r.headers["x-shopify-triggered-at"]).toBe(new Date(T0).toISOString());
    }
    expect(JSON.parse(received[1].body).finalized_on).toBe("2026-12-01T10:00:00+00:00");
  });

  it("sending the evidence is a disputes/update (UNDER_REVIEW, evidence_sent_on)", async () => {
    const { shopify, shop, received } = await subscribed(["read_shopify_payments_disputes", "write_shopify_payments_dispute_evidences"]);
    const dispute = shop.createDispute(shop.createOrder({ amount: "10.00" }).id);
    await shopify.flushWebhooks();
    const { body } = await graphql(
      shopify,
      `
        mutation ($id: ID!) {
          disputeEvidenceUpdate(id: $id, input: { submitEvidence: true }) {
            userErrors {
              code
            }
          }
        }
      `,
      { id: `gid://shopify/ShopifyPaymentsDisputeEvidence/${dispute.evidence.id}` },
    );
    expect(body.data.disputeEvidenceUpdate.userErrors).toEqual([]);
    await shopify.flushWebhooks();
    expect(received.map((r) => r.headers["x-shopify-topic"])).toEqual(["disputes/create", "disputes/update"]);
    expect(JSON.parse(received[1].body)).toMatchObject({ status: "under_review", evidence_sent_on: "2026-12-01T10:00:00+00:00" });
  });

  it("none to a shop without the scope the topics require", async () => {
    const { shopify, shop, received } = await subscribed([]);
    const dispute = shop.createDispute(shop.createOrder({ amount: "10.00" }).id);
    shop.updateDispute(dispute.id, { status: "LOST" });
    await shopify.flushWebhooks();
    expect(received).toEqual([]);
  });
});
