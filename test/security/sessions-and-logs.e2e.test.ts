import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/lib/db/client";
import { waitFor } from "../support/wait";
import { FakeShopify } from "../../fake-shopify/server";
import { mintSessionToken } from "../../fake-shopify/session-token";
import { newDelivery, refundWebhookBody, sendDelivery, shopWebhookBody, TOPIC_PATHS } from "../../fake-shopify/webhooks";
import { installApp, startAppProcess } from "../../scripts/demo-server";
import { TEST_APP } from "../support/credentials";
import { createTestDatabase } from "../support/database";
import { CHROME_UA, dataPath } from "../support/embedded";
import { storedSessionTokens, storedTokens } from "../support/sessions";

const SHOP = "secure-shop.myshopify.com";
let shopify: FakeShopify;
let app: Awaited<ReturnType<typeof startAppProcess>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: PrismaClient;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  database = await createTestDatabase();
  shopify = new FakeShopify(TEST_APP);
  shopify.addShop(SHOP);
  const origin = await shopify.listen();
  app = await startAppProcess({ port: "free", databaseUrl: database.url, shopifyOrigin: origin, log: "capture" });
  db = createPrismaClient(database.url);
  await installApp(app.url, SHOP);
});
afterAll(async () => {
  await db.$disconnect();
  await app.stop();
  await shopify.close();
  await database.drop();
});

const asBearer = (token: string) =>
  fetch(`${app.url}${dataPath("/app", "routes/app._index")}`, { headers: { Authorization: `Bearer ${token}`, "User-Agent": CHROME_UA } });
const token = (overrides: Parameters<typeof mintSessionToken>[0]["overrides"] = {}, secret = TEST_APP.secret, shop = SHOP) =>
  mintSessionToken({ shop, apiKey: TEST_APP.apiKey, secret, overrides });

describe("session tokens", () => {
  it("a valid token reads the shop's data", async () => {
    expect((await asBearer(token())).status).toBe(200);
  });

  it.each([
    ["a wrong signature", () => token({}, "someone-elses-secret")],
    ["another app's audience", () => token({ aud: "another-app-key" })],
    ["a destination that is not a shop", () => token({ dest: "https://evil.example.com" })],
    ["an expired token", () => token({ exp: now() - 120, nbf: now() - 300, iat: now() - 300 })],
    ["a token not valid yet", () => token({ nbf: now() + 600, iat: now() + 600, exp: now() + 660 })],
    ["a token that is not a JWT", () => "not.a.jwt"],
  ])("%s is refused with 401", async (_name, make) => {
    const response = await asBearer(make());
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("figures");
  });
});

describe("secrets in logs", () => {
  it("the app's logs never contain the API secret, an access token, a refresh token or a session token", async () => {
    const shop = shopify.shop(SHOP);
    for (let i = 0; i < 3; i++) {
      const order = shop.createOrder({ amount: "20.00" });
      await sendDelivery(
        app.url,
        TOPIC_PATHS["refunds/create"],
        newDelivery("refunds/create", SHOP, refundWebhookBody(shop, shop.createRefund(order.id, { amount: "5.00" }))),
        TEST_APP.secret,
      );
    }
    const used = token();
    await asBearer(used);
    await asBearer(token({}, "forged-secret"));
    // Logs of the worker's work too: it has read the three refunds back with the shop's token.
    await waitFor(
      "the worker to read the three refunds back",
      async () => (await db.observation.count({ where: { channel: "refund_readback", ok: true } })) >= 3,
    );
    const tokens = await storedTokens(db, SHOP);
    // Staff member 42's online token, from the token exchange of their first request.
    const online = await storedSessionTokens(db, `${SHOP}_42`);
    const logs = app.output();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [TEST_APP.secret, tokens.accessToken!, tokens.refreshToken!, online.accessToken!, used, used.split(".")[2]]) {
      expect(logs).not.toContain(secret);
    }
  });
});

describe("embedded pages", () => {
  it("may be framed by the shop's admin only", async () => {
    const host = Buffer.from(`admin.shopify.com/store/${SHOP.split(".")[0]}`).toString("base64url");
    const response = await fetch(`${app.url}/app?embedded=1&shop=${SHOP}&host=${host}&id_token=${token()}`, { headers: { "User-Agent": CHROME_UA } });
    expect(response.status).toBe(200);
    const policy = response.headers.get("content-security-policy") ?? "";
    const ancestors = /frame-ancestors ([^;]*)/.exec(policy)![1].trim().split(/\s+/);
    expect(ancestors.slice(0, 2)).toEqual(["https://secure-shop.myshopify.com", "https://admin.shopify.com"]);
    // The rest is the library's list of Shopify's own admin hosts: nothing else may frame the app.
    expect(
      ancestors.every((origin) =>
        /^https:\/\/(secure-shop\.myshopify\.com|admin\.shopify\.com|\*\.spin\.dev|admin\.myshopify\.io|admin\.shop\.dev)$/.test(origin),
      ),
    ).toBe(true);
  });
});

describe("uninstall, then reinstall", () => {
  it("starts clean and safe: no session after uninstall, observing again after the new token exchange", async () => {
    shopify.revokeAccessTokens(SHOP);
    await sendDelivery(app.url, TOPIC_PATHS["app/uninstalled"], newDelivery("app/uninstalled", SHOP, shopWebhookBody(shopify.shop(SHOP))), TEST_APP.secret);
    expect(await db.session.count({ where: { shop: SHOP } })).toBe(0);
    expect((await db.shopState.findUniqueOrThrow({ where: { shop: SHOP } })).uninstalledAt).not.toBeNull();
    const order = shopify.shop(SHOP).createOrder({ amount: "9.00" });
    const ignored = newDelivery("refunds/create", SHOP, refundWebhookBody(shopify.shop(SHOP), shopify.shop(SHOP).createRefund(order.id, { amount: "1.00" })));
    expect((await sendDelivery(app.url, TOPIC_PATHS["refunds/create"], ignored, TEST_APP.secret)).status).toBe(200);
    expect(await db.webhookDelivery.count({ where: { webhookId: ignored.webhookId } })).toBe(0);
    await installApp(app.url, SHOP);
    expect((await storedTokens(db, SHOP)).accessToken).toMatch(/^shpat_/);
    expect((await db.shopState.findUniqueOrThrow({ where: { shop: SHOP } })).uninstalledAt).toBeNull();
  });
});
