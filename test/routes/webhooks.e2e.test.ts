import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/lib/db/client";
import { waitFor } from "../support/wait";
import { startTestApp, type TestApp } from "../support/app-server";
import { installShop } from "../support/sessions";
import { TEST_APP } from "../support/credentials";
import { dataPath, embeddedFetch } from "../support/embedded";
import { deliveryHeaders, newDelivery, refundWebhookBody, sendDelivery, shopWebhookBody, TOPIC_PATHS } from "../../fake-shopify/webhooks";

const SHOP = "webhook-shop.myshopify.com";
let app: TestApp;
let db: PrismaClient;

beforeAll(async () => {
  app = await startTestApp();
  db = createPrismaClient(app.databaseUrl);
  await installShop(db, app.shopify, SHOP);
});
afterAll(async () => {
  await db.$disconnect();
  await app.close();
});

function refundDelivery() {
  const shop = app.shopify.shop(SHOP);
  const order = shop.createOrder({ amount: "80.00" });
  const refund = shop.createRefund(order.id, { amount: "25.00" });
  return newDelivery("refunds/create", SHOP, refundWebhookBody(shop, refund));
}

describe("POST /webhooks/refunds/create", () => {
  it("answers the same through Remix's route (what `shopify app dev` serves), where no Node handler comes first", async () => {
    const { createRequestHandler } = await import("@remix-run/node");
    const build = await import(new URL("../../build/server/index.js", import.meta.url).href);
    const remix = createRequestHandler(build, "production");
    const url = new URL(TOPIC_PATHS["refunds/create"], app.url).toString();
    const delivery = refundDelivery();
    const headers = deliveryHeaders(delivery, TEST_APP.secret);
    expect((await remix(new Request(url, { method: "POST", headers, body: delivery.body }))).status).toBe(200);
    expect(await db.webhookDelivery.count({ where: { webhookId: delivery.webhookId } })).toBe(1);
    const tampered = await remix(new Request(url, { method: "POST", headers, body: delivery.body.replace("25.00", "95.00") }));
    expect(tampered.status).toBe(401);
    const put = await remix(new Request(url, { method: "PUT", headers, body: delivery.body }));
    expect([put.status, put.headers.get("allow")]).toEqual([405, "POST"]);
  });

  it("accepts a correctly signed delivery, and the app's own worker verifies the refund", async () => {
    const delivery = refundDelivery();
    const response = await sendDelivery(app.url, TOPIC_PATHS["refunds/create"], delivery, TEST_APP.secret);
    expect(response.status).toBe(200);
    const refundGid = JSON.parse(delivery.body.replace(/:(\d{16,})/g, ':"$1"')).admin_graphql_api_id;
    expect(await db.webhookDelivery.count({ where: { refundGid } })).toBe(1);
    // Final once the contract's 20 s stale read window has passed since the refund's created_at.
    const op = await waitFor("the in-app worker's verdict", () => db.operation.findFirst({ where: { refundGid, status: { not: "PENDING" } } }));
    expect(op.status).toBe("VERIFIED");
  });

  it("refuses a tampered body with 401", async () => {
    const delivery = refundDelivery();
    const headers = deliveryHeaders(delivery, TEST_APP.secret);
    const tampered = delivery.body.replace('"amount":"25.00"', '"amount":"2500.00"');
    expect(tampered).not.toBe(delivery.body);
    const response = await fetch(`${app.url}/webhooks/refunds/create`, { method: "POST", headers, body: tampered });
    expect(response.status).toBe(401);
    expect(await db.webhookDelivery.count({ where: { webhookId: delivery.webhookId } })).toBe(0);
  });

  it("refuses a delivery signed with another secret with 401", async () => {
    const delivery = refundDelivery();
    const response = await sendDelivery(app.url, TOPIC_PATHS["refunds/create"], delivery, "not-the-app-secret");
    expect(response.status).toBe(401);
    expect(await db.webhookDelivery.count({ where: { webhookId: delivery.webhookId } })).toBe(0);
  });

  it("refuses a delivery without its topic header with 400", async () => {
    const delivery = refundDelivery();
    const headers = deliveryHeaders(delivery, TEST_APP.secret);
    delete (headers as Record<string, string>)["X-Shopify-Topic"];
    const response = await fetch(`${app.url}/webhooks/refunds/create`, { method: "POST", headers, body: delivery.body });
    expect(response.status).toBe(400);
  });

  it("refuses anything but POST", async () => {
    const response = await fetch(`${app.url}/webhooks/refunds/create`, { method: "GET" });
    expect(response.status).toBe(405);
  });

  it("answers a signed body that is not JSON with 400 and keeps serving", async () => {
    const delivery = { ...refundDelivery(), body: '{"id": 12, "order_id":' };
    const response = await sendDelivery(app.url, TOPIC_PATHS["refunds/create"], delivery, TEST_APP.secret);
    expect(response.status).toBe(400);
    const next = await sendDelivery(app.url, TOPIC_PATHS["refunds/create"], refundDelivery(), TEST_APP.secret);
    expect(next.status).toBe(200);
  });

  it("refuses with 422 a signed refund whose order or refund number has a leading zero, and stores nothing", async () => {
    // Each is a second spelling of an id the app keys on: the deliveries of one refund, the recent refunds of an order.
    const respellings = [
      (body: string) => body.replace(/^\{"id":(\d+),"order_id":(\d+),/, '{"id":$1,"order_id":"0$2",'),
      (body: string) => body.replace(/"admin_graphql_api_id":"gid:\/\/shopify\/Refund\/(\d+)"/, '"admin_graphql_api_id":"gid://shopify/Refund/0$1"'),
    ];
    for (const respell of respellings) {
      const delivery = refundDelivery();
      const respelled = { ...delivery, body: respell(delivery.body) };
      expect(respelled.body).not.toBe(delivery.body);
      const response = await sendDelivery(app.url, TOPIC_PATHS["refunds/create"], respelled, TEST_APP.secret);
      expect(response.status).toBe(422);
      expect(await response.text()).toMatch(/without leading zeros/);
      expect(await db.webhookDelivery.count({ where: { webhookId: delivery.webhookId } })).toBe(0);
    }
  });

  it("answers a signed JSON body that is not a refund with 422", async () => {
    const delivery = { ...refundDelivery(), body: '{"hello":"world"}' };
    const response = await sendDelivery(app.url, TOPIC_PATHS["refunds/create"], delivery, TEST_APP.secret);
    expect(response.status).toBe(422);
    expect(await response.text()).toMatch(/id/);
  });
});

describe("POST /webhooks/app/uninstalled", () => {
  it("deletes the shop's sessions, its staff members' online ones too, and a second delivery is harmless", async () => {
    const shop = "leaving-shop.myshopify.com";
    await installShop(db, app.shopify, shop);
    // Two staff members opened the app: each has an online session beside the shop's offline one.
    for (const userId of ["42", "303"]) expect((await embeddedFetch(app.url, shop, userId)(dataPath("/app", "routes/app._index"))).status).toBe(200);
    const sessions = await db.session.findMany({ where: { shop }, select: { isOnline: true, userId: true } });
    expect(sessions.map((s) => `${s.isOnline ? "online" : "offline"} ${s.userId ?? ""}`.trim()).sort()).toEqual(["offline", "online 303", "online 42"]);
    app.shopify.revokeAccessTokens(shop); // the merchant removed the app
    const delivery = newDelivery("app/uninstalled", shop, shopWebhookBody(app.shopify.shop(shop)));
    for (let i = 0; i < 2; i++) {
      const response = await sendDelivery(app.url, TOPIC_PATHS["app/uninstalled"], delivery, TEST_APP.secret);
      expect(response.status).toBe(200);
    }
    expect(await db.session.count({ where: { shop } })).toBe(0);
    expect(await db.session.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("keeps the sessions when the signature is wrong", async () => {
    const delivery = newDelivery("app/uninstalled", SHOP, shopWebhookBody(app.shopify.shop(SHOP)));
    const response = await sendDelivery(app.url, TOPIC_PATHS["app/uninstalled"], delivery, "wrong");
    expect(response.status).toBe(401);
    expect(await db.session.count({ where: { shop: SHOP } })).toBe(1);
  });
});

describe("POST /webhooks/app/scopes_update", () => {
  it("is a hint: the scopes stay as Shopify said them, and Shopify is asked again at the next pass", async () => {
    const before = (await db.session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } })).scope;
    await db.shopState.upsert({
      where: { shop: SHOP },
      create: { shop: SHOP, paymentsAccount: "not_granted", paymentsCheckedAt: new Date() },
      update: { paymentsAccount: "not_granted", paymentsCheckedAt: new Date() },
    });
    const delivery = newDelivery(
      "app/scopes_update",
      SHOP,
      JSON.stringify({ id: 1, previous: ["read_orders"], current: ["read_orders"], updated_at: new Date().toISOString() }),
    );
    const response = await sendDelivery(app.url, TOPIC_PATHS["app/scopes_update"], delivery, TEST_APP.secret);
    expect(response.status).toBe(200);
    expect((await db.session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } })).scope).toBe(before);
    // Only a note that Shopify is to be asked at the next settlement pass.
    expect(await db.shopState.findUniqueOrThrow({ where: { shop: SHOP } })).toMatchObject({ paymentsAccount: "ask_again", paymentsCheckedAt: null });
  });
});

describe("compliance topics", () => {
  for (const topic of ["customers/data_request", "customers/redact", "shop/redact"]) {
    it(`${topic}: 200 when signed, 401 when not`, async () => {
      const other = "compliance-gone.myshopify.com"; // shop/redact comes 48 hours after an uninstall
      const domain = topic === "shop/redact" ? other : SHOP;
      const delivery = newDelivery(topic, domain, JSON.stringify({ shop_id: 1, shop_domain: domain, customer: { id: 1 }, orders_requested: [] }));
      expect((await sendDelivery(app.url, TOPIC_PATHS[topic], delivery, TEST_APP.secret)).status).toBe(200);
      expect((await sendDelivery(app.url, TOPIC_PATHS[topic], delivery, "wrong")).status).toBe(401);
    });
  }
});
