import { createHmac } from "node:crypto";
import { request } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/lib/db/client";
import { deliveryHeaders, newDelivery, refundWebhookBody, signBody, TOPIC_PATHS, type Delivery } from "../../fake-shopify/webhooks";
import { startTestApp, type TestApp } from "../support/app-server";
import { TEST_APP } from "../support/credentials";
import { installShop } from "../support/sessions";

const SHOP = "fuzz-shop.myshopify.com";
let app: TestApp;
let db: PrismaClient;
const tally = { tried: 0, refused: 0, accepted: 0 };

beforeAll(async () => {
  app = await startTestApp({ env: { VERIFIER_WORKER: "off" } });
  db = createPrismaClient(app.databaseUrl);
  await installShop(db, app.shopify, SHOP);
});
afterAll(async () => {
  console.log(`webhook fuzz: ${tally.tried} inputs tried, ${tally.refused} refused (4xx), ${tally.accepted} accepted`);
  await db.$disconnect();
  await app.close();
});

function validDelivery(): Delivery {
  const shop = app.shopify.shop(SHOP);
  const order = shop.createOrder({ amount: "30.00" });
  return newDelivery("refunds/create", SHOP, refundWebhookBody(shop, shop.createRefund(order.id, { amount: "10.00" })));
}

async function post(path: string, headers: Record<string, string>, body: string | Uint8Array): Promise<number> {
  tally.tried++;
  const response = await fetch(`${app.url}${path}`, { method: "POST", headers, body: body as BodyInit });
  await response.arrayBuffer();
  if (response.status >= 400) tally.refused++;
  else tally.accepted++;
  return response.status;
}

const stored = (webhookId: string) => db.webhookDelivery.count({ where: { webhookId } });

type Mutation =
  | { kind: "body"; at: number; insert: string }
  | { kind: "truncate"; keep: number }
  | { kind: "dropHeader"; header: string }
  | { kind: "header"; header: string; value: string }
  | { kind: "resignedGarbage"; bytes: Uint8Array }
  | { kind: "resignedJson"; value: unknown }
  | { kind: "wrongTopic"; topic: string }
  | { kind: "unknownShop" }
  | { kind: "stale"; hours: number };

const HEADERS = ["X-Shopify-Topic", "X-Shopify-Hmac-Sha256", "X-Shopify-Shop-Domain", "X-Shopify-API-Version", "X-Shopify-Webhook-Id"];
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("body" as const), at: fc.nat(), insert: fc.string({ minLength: 1, maxLength: 8, unit: "binary" }) }),
  fc.record({ kind: fc.constant("truncate" as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant("dropHeader" as const), header: fc.constantFrom(...HEADERS) }),
  fc.record({
    kind: fc.constant("header" as const),
    header: fc.constantFrom(...HEADERS, "Content-Type", "X-Shopify-Triggered-At"),
    value: fc.string({ maxLength: 40 }).map((v) => v.replace(/[^\x20-\x7e]/g, "")),
  }),
  fc.record({ kind: fc.constant("resignedGarbage" as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 300 }) }),
  fc.record({ kind: fc.constant("resignedJson" as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({
    kind: fc.constant("wrongTopic" as const),
    topic: fc.constantFrom("orders/create", "refunds/update", "app/uninstalled", "shop/redact", "REFUNDS_CREATE2"),
  }),
  fc.record({ kind: fc.constant("unknownShop" as const) }),
  fc.record({ kind: fc.constant("stale" as const), hours: fc.integer({ min: 49, max: 24 * 400 }) }),
);

/** Applies a mutation; says whether the result is still a genuine, fresh delivery of an installed shop's refund. */
function mutate(delivery: Delivery, m: Mutation): { headers: Record<string, string>; body: string | Uint8Array; genuine: boolean } {
  const headers: Record<string, string> = { ...deliveryHeaders(delivery, TEST_APP.secret) };
  let body: string | Uint8Array = delivery.body;
  switch (m.kind) {
    case "body": {
      const at = m.at % (delivery.body.length + 1);
      body = delivery.body.slice(0, at) + m.insert + delivery.body.slice(at);
      return { headers, body, genuine: false };
    }
    case "truncate":
      return { headers, body: delivery.body.slice(0, m.keep % delivery.body.length), genuine: false };
    case "dropHeader":
      delete headers[m.header];
      return { headers, body, genuine: false };
    case "header":
      headers[m.header] = m.value;
      // HTTP trims a header value's surrounding whitespace: " " arrives as an empty header.
      return {
        headers,
        body,
        genuine:
          m.header === "Content-Type" ||
          (m.header === "X-Shopify-Triggered-At" && !(Date.now() - Date.parse(m.value) > 48 * 3600_000)) ||
          (m.header === "X-Shopify-Webhook-Id" && m.value.trim().length > 0) ||
          (m.header === "X-Shopify-API-Version" && m.value.trim().length > 0),
      };
    case "resignedGarbage":
      headers["X-Shopify-Hmac-Sha256"] = createHmac("sha256", TEST_APP.secret).update(m.bytes).digest("base64");
      return { headers, body: m.bytes, genuine: false };
    case "resignedJson": {
      const text = JSON.stringify(m.value);
      headers["X-Shopify-Hmac-Sha256"] = signBody(text, TEST_APP.secret);
      return { headers, body: text, genuine: false };
    }
    case "wrongTopic":
      headers["X-Shopify-Topic"] = m.topic;
      return { headers, body, genuine: false };
    case "unknownShop":
      headers["X-Shopify-Shop-Domain"] = "never-installed.myshopify.com";
      return { headers, body, genuine: false };
    case "stale":
      headers["X-Shopify-Triggered-At"] = new Date(Date.now() - m.hours * 3600_000).toISOString();
      return { headers, body, genuine: false };
  }
}

describe("bad input at the door", () => {
  it("never answers 5xx, never stores what is unsigned, tampered, misaddressed or stale, and keeps serving", async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        const delivery = validDelivery();
        const { headers, body, genuine } = mutate(delivery, m);
        const status = await post(TOPIC_PATHS["refunds/create"], headers, body);
        expect(status).toBeLessThan(500);
        const webhookId = headers["X-Shopify-Webhook-Id"] ?? delivery.webhookId;
        if (!genuine) expect(await stored(webhookId)).toBe(0);
        else expect(status).toBe(200);
      }),
      { numRuns: 1500 },
    );
    const after = validDelivery();
    expect(await post(TOPIC_PATHS["refunds/create"], deliveryHeaders(after, TEST_APP.secret), after.body)).toBe(200);
    expect(await stored(after.webhookId)).toBe(1);
  });

  it("refuses an oversized body with 413, declared or streamed, before reading it whole, and stores nothing", async () => {
    const base = validDelivery();
    const big = `{"id":1,"pad":"${"x".repeat(1024 * 1024 + 10)}"}`;
    const headers = deliveryHeaders({ ...base, body: big }, TEST_APP.secret);
    // A client that reads the early answer while it is still sending (test/http/too-large covers one that sends it whole first).
    const send = (chunked: boolean) =>
      new Promise<number>((resolve, reject) => {
        tally.tried++;
        const { hostname, port } = new URL(app.url);
        const req = request(
          {
            hostname,
            port,
            path: TOPIC_PATHS["refunds/create"],
            method: "POST",
            headers: { ...headers, ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(Buffer.byteLength(big)) }) },
          },
          (res) => {
            res.resume();
            tally.refused++;
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", (error) => (error.message.includes("EPIPE") || error.message.includes("ECONNRESET") ? undefined : reject(error)));
        for (let i = 0; i < big.length; i += 64 * 1024) req.write(big.slice(i, i + 64 * 1024));
        req.end();
      });
    expect(await send(false)).toBe(413);
    expect(await send(true)).toBe(413);
    expect(await db.webhookDelivery.count({ where: { webhookId: headers["X-Shopify-Webhook-Id"] } })).toBe(0);
    const after = validDelivery();
    expect(await post(TOPIC_PATHS["refunds/create"], deliveryHeaders(after, TEST_APP.secret), after.body)).toBe(200);
  });

  it("answers every compliance and app topic's malformed input with 4xx, never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.entries(TOPIC_PATHS)), fc.jsonValue({ maxDepth: 2 }), fc.boolean(), async ([topic, path], value, signed) => {
        const body = JSON.stringify(value);
        const delivery = { ...newDelivery(topic, SHOP, body) };
        const headers = deliveryHeaders(delivery, signed ? TEST_APP.secret : "wrong-secret");
        const status = await post(path, headers, body);
        expect(status).toBeLessThan(500);
        if (!signed) expect(status).toBe(401);
      }),
      { numRuns: 300 },
    );
    // 300 malformed deliveries later the process still serves.
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });
});
