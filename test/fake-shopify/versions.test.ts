import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";
import { resolveApiVersion, SUPPORTED_API_VERSIONS } from "../../fake-shopify/versions";
import { graphql, setup } from "./support";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("API versions", () => {
  it("supports 2026-01 to 2026-10 and falls forward from an older release", () => {
    expect(SUPPORTED_API_VERSIONS).toEqual(["2026-01", "2026-04", "2026-07", "2026-10"]);
    expect(resolveApiVersion("2026-07")).toBe("2026-07");
    expect(resolveApiVersion("2025-07")).toBe("2026-01");
    expect(resolveApiVersion("2025-13")).toBeUndefined();
    expect(resolveApiVersion("latest")).toBeUndefined();
  });

  it("answers an unsupported version with the oldest supported one, and says so in X-Shopify-API-Version", async () => {
    const { shopify } = setup();
    const old = await graphql(shopify, "{ shop { name } }", {}, { version: "2025-07" });
    expect(old.status).toBe(200);
    expect(old.body.data.shop.name).toBe("fake");
    expect(old.headers.get("x-shopify-api-version")).toBe("2026-01");
    const current = await graphql(shopify, "{ shop { name } }", {}, { version: "2026-10" });
    expect(current.headers.get("x-shopify-api-version")).toBe("2026-10");
    const errors = await graphql(shopify, "{ shop { nope } }", {}, { version: "2026-04" });
    expect(errors.headers.get("x-shopify-api-version")).toBe("2026-04");
    expect((await graphql(shopify, "{ shop { name } }", {}, { version: "not-a-version" })).status).toBe(404);
  });

  it("sends webhooks with the subscription's version: ADMIN_API_VERSION by default, or the one set", async () => {
    const received: (string | undefined)[] = [];
    const app = createServer((req, res) => {
      received.push(req.headers["x-shopify-api-version"] as string | undefined);
      req.resume();
      req.on("end", () => res.end("ok"));
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => app.close(() => resolve())));
    const { shopify, shop } = setup();
    shopify.webhookTarget = { appUrl: `http://127.0.0.1:${(app.address() as AddressInfo).port}` };
    const order = shop.createOrder({ amount: "30.00" });
    const refundCreate = `mutation($input: RefundInput!) { refundCreate(input: $input) @idempotent(key: "k1") { refund { id } } }`;
    await graphql(shopify, refundCreate, {
      input: {
        orderId: `gid://shopify/Order/${order.id}`,
        transactions: [{ amount: "1.00", gateway: "shopify_payments", kind: "REFUND", orderId: `gid://shopify/Order/${order.id}` }],
      },
    });
    await shopify.flushWebhooks();
    shopify.webhookApiVersion = "2026-04";
    await graphql(shopify, refundCreate.replace("k1", "k2"), {
      input: {
        orderId: `gid://shopify/Order/${order.id}`,
        transactions: [{ amount: "2.00", gateway: "shopify_payments", kind: "REFUND", orderId: `gid://shopify/Order/${order.id}` }],
      },
    });
    await shopify.flushWebhooks();
    expect(received).toEqual([ADMIN_API_VERSION, "2026-04"]);
  });
});
