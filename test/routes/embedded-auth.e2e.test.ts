import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/lib/db/client";
import { startTestApp, type TestApp } from "../support/app-server";
import { installShop, storedTokens } from "../support/sessions";
import { TEST_APP } from "../support/credentials";
import { mintSessionToken } from "../../fake-shopify/session-token";
import { CHROME_UA } from "../support/embedded";

const SHOP = "embedded-shop.myshopify.com";
let app: TestApp;
let db: PrismaClient;

beforeAll(async () => {
  app = await startTestApp();
  db = createPrismaClient(app.databaseUrl);
});
afterAll(async () => {
  await db.$disconnect();
  await app.close();
});

function embeddedUrl(token: string, shop = SHOP) {
  const host = Buffer.from(`admin.shopify.com/store/${shop.split(".")[0]}`).toString("base64url");
  return `${app.url}/app?embedded=1&shop=${shop}&host=${host}&id_token=${token}`;
}

describe("GET /app (embedded)", () => {
  it("serves the app for a valid session token of a shop with an offline session", async () => {
    await installShop(db, app.shopify, SHOP);
    const token = mintSessionToken({ shop: SHOP, apiKey: TEST_APP.apiKey, secret: TEST_APP.secret });
    const response = await fetch(embeddedUrl(token), { headers: { "User-Agent": CHROME_UA }, redirect: "manual" });
    expect(response.status).toBe(200);
    const html = await response.text();
    // A shop with no refund yet gets the first-run page of the dashboard.
    expect(html).toContain("Watching this shop&#x27;s refunds");
    expect(html).toContain(">Refunds<");
    expect(response.headers.get("content-security-policy")).toContain(`frame-ancestors https://${SHOP} https://admin.shopify.com`);
  });

  it("refuses a session token signed with another secret", async () => {
    await installShop(db, app.shopify, SHOP);
    const forged = mintSessionToken({ shop: SHOP, apiKey: TEST_APP.apiKey, secret: "someone-elses-secret" });
    const response = await fetch(embeddedUrl(forged), { headers: { "User-Agent": CHROME_UA }, redirect: "manual" });
    // Shopify's library sends the document request to the bounce page for a fresh token, dropping the forged one.
    expect(response.status).toBe(302);
    const location = response.headers.get("location") ?? "";
    expect(location.startsWith("/auth/session-token?")).toBe(true);
    expect(location).not.toContain(forged);
    expect(await response.text()).not.toContain("Watching this shop");
    const api = await fetch(`${app.url}/app`, { headers: { "User-Agent": CHROME_UA, Authorization: `Bearer ${forged}` }, redirect: "manual" });
    expect(api.status).toBe(401);
  });

  it("installs a new shop by token exchange with the shop and stores its offline session", async () => {
    const shop = "new-shop.myshopify.com";
    app.shopify.addShop(shop);
    const token = mintSessionToken({ shop, apiKey: TEST_APP.apiKey, secret: TEST_APP.secret });
    const response = await fetch(embeddedUrl(token, shop), { headers: { "User-Agent": CHROME_UA }, redirect: "manual" });
    expect(response.status).toBe(200);
    const tokens = await storedTokens(db, shop);
    expect(tokens.accessToken).toMatch(/^shpat_/);
    expect(tokens.refreshToken).toMatch(/^shprt_/);
  });
});
