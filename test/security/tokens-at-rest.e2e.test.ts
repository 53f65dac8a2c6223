import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/lib/db/client";
import { FakeShopify } from "../../fake-shopify/server";
import { installApp, startAppProcess } from "../../scripts/demo-server";
import { TEST_APP } from "../support/credentials";
import { createTestDatabase } from "../support/database";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop, sealedAsV1, storedSessionTokens, storedTokens } from "../support/sessions";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { SealedSessionStorage } from "../../app/shopify/sealed-session-storage.server";
import { SecretKeyError } from "../../app/lib/crypto/secret-box.server";

// Someone who reads the database (a backup, a replica, a leaked dump) must not get the shops' tokens.
const SHOP = "at-rest.myshopify.com";
const OLD_ROW = "plaintext-row.myshopify.com";
const COPIED_INTO = "copied-into.myshopify.com";
const LEGACY_ROW = "sealed-v1-row.myshopify.com";
const NEW_KEY = "7a".repeat(32);
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: PrismaClient;
let shopify: FakeShopify;
let origin: string;
let app: Awaited<ReturnType<typeof startAppProcess>>;

const start = async (env: Record<string, string> = {}) =>
  startAppProcess({ port: "free", databaseUrl: database.url, shopifyOrigin: origin, log: "ignore", env: { VERIFIER_WORKER: "off", ...env } });

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPrismaClient(database.url);
  shopify = new FakeShopify(TEST_APP);
  shopify.addShop(SHOP);
  origin = await shopify.listen();
  app = await start();
});

afterAll(async () => {
  await app?.stop();
  await shopify?.close();
  await db?.$disconnect();
  await database?.drop();
});

const dashboard = (shop: string) => embeddedFetch(app.url, shop)(dataPath("/app", "routes/app._index"));

/**
 * Staff member 42 opens the app in the shop for the first time (a page that reads nothing from
 * Shopify): token exchange stores the shop's offline session and their online one. A test then
 * writes the offline row as an older app left it; their next request exchanges nothing.
 */
async function openedOnce(shop: string): Promise<void> {
  if (!shopify.shops.has(shop)) shopify.addShop(shop);
  expect((await embeddedFetch(app.url, shop)(dataPath("/app/settings/alerts", "routes/app.settings.alerts"))).status).toBe(200);
}

/** A page that reads Shopify with the shop's offline session every time: the refund form reads its order. */
function refundForm(shop: string) {
  const order = shopify.shop(shop).createOrder({ amount: "10.00" });
  return embeddedFetch(app.url, shop)(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"));
}

describe("the shops' tokens in the database", () => {
  it("are sealed when a shop installs, by their own key: the row holds no token", async () => {
    await installApp(app.url, SHOP);
    const tokens = await storedTokens(db, SHOP);
    expect(tokens.stored.accessToken).not.toMatch(/shpat_|shpua_/);
    expect(tokens.stored.refreshToken).not.toMatch(/shprt_/);
    expect(tokens.accessToken).toMatch(/^shpat_/);
    expect(tokens.refreshToken).toMatch(/^shprt_/);
    // Not with the alerts key (each kind of secret its own key).
    expect((await storedTokens(db, SHOP, "d3".repeat(32))).accessToken).toBeNull();
    expect((await dashboard(SHOP)).status).toBe(200);
  });

  it("a staff member's online session is sealed as the shop's offline one: its row holds no token, sealed for its own row", async () => {
    // installApp's request is staff member 42's: the app exchanged its session token for their online token too.
    const online = await storedSessionTokens(db, `${SHOP}_42`);
    expect(online.stored.accessToken).not.toMatch(/shpua_|shpat_/);
    expect(online.accessToken).toMatch(/^shpua_/);
    expect(online.refreshToken).toBeNull();
    expect((await storedSessionTokens(db, `${SHOP}_42`, "d3".repeat(32))).accessToken).toBeNull();
    // Copied into the shop's offline row, it does not open there.
    const offline = await db.session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } });
    await db.session.update({ where: { id: offline.id }, data: { accessToken: online.stored.accessToken } });
    const storage = new SealedSessionStorage(new PrismaSessionStorage(db), { current: Buffer.from(TEST_APP.sessionSecretKey, "hex") });
    await expect(storage.loadSession(offline.id)).rejects.toThrow(SecretKeyError);
    await db.session.update({ where: { id: offline.id }, data: { accessToken: offline.accessToken } });
    expect((await storage.loadSession(`${SHOP}_42`))?.accessToken).toBe(online.accessToken);
  });

  it("a row stored in plaintext before sealing existed is sealed the first time the app reads it", async () => {
    await openedOnce(OLD_ROW);
    const plain = await installShop(db, shopify, OLD_ROW);
    expect((await storedTokens(db, OLD_ROW)).stored.accessToken).toBe(plain);
    expect((await refundForm(OLD_ROW)).status).toBe(200);
    const tokens = await storedTokens(db, OLD_ROW);
    expect(tokens.stored.accessToken).not.toContain("shpat_");
    expect(tokens.accessToken).toBe(plain);
  });

  it("a shop's sealed token copied into another shop's row does not open there: it is sealed for its own session", async () => {
    await installShop(db, shopify, COPIED_INTO);
    const source = await db.session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } });
    await db.session.update({ where: { id: `offline_${COPIED_INTO}` }, data: { accessToken: source.accessToken } });
    // The app's own storage, as app/shopify.server.ts builds it.
    const storage = new SealedSessionStorage(new PrismaSessionStorage(db), { current: Buffer.from(TEST_APP.sessionSecretKey, "hex") });
    await expect(storage.loadSession(`offline_${COPIED_INTO}`)).rejects.toThrow(SecretKeyError);
    expect((await storage.loadSession(`offline_${SHOP}`))?.accessToken).toMatch(/^shpat_/);
  });

  it("a token sealed before tokens were bound to their session (v1) still opens, and is sealed again, bound, the first time it is read", async () => {
    await openedOnce(LEGACY_ROW);
    const plain = await installShop(db, shopify, LEGACY_ROW);
    const legacy = sealedAsV1(plain, Buffer.from(TEST_APP.sessionSecretKey, "hex"));
    await db.session.update({ where: { id: `offline_${LEGACY_ROW}` }, data: { accessToken: legacy } });
    expect((await refundForm(LEGACY_ROW)).status).toBe(200);
    const tokens = await storedTokens(db, LEGACY_ROW);
    expect(tokens.stored.accessToken).toMatch(/^v2:/);
    expect(tokens.accessToken).toBe(plain);
  });

  it("after a key rotation (the old key as SESSION_SECRET_KEY_PREVIOUS), they still work, and are sealed again with the new key", async () => {
    await app.stop();
    app = await start({ SESSION_SECRET_KEY: NEW_KEY, SESSION_SECRET_KEY_PREVIOUS: TEST_APP.sessionSecretKey });
    // The request reads staff member 42's online session; the refund form reads Shopify with the shop's offline one.
    expect((await refundForm(SHOP)).status).toBe(200);
    expect((await storedTokens(db, SHOP, NEW_KEY)).accessToken).toMatch(/^shpat_/);
    expect((await storedTokens(db, SHOP)).accessToken).toBeNull();
    expect((await storedSessionTokens(db, `${SHOP}_42`, NEW_KEY)).accessToken).toMatch(/^shpua_/);
    expect((await storedSessionTokens(db, `${SHOP}_42`)).accessToken).toBeNull();
  });
});

describe("a production start", () => {
  it("without SESSION_SECRET_KEY stops at once, with a sentence naming it", () => {
    const result = spawnSync("node", ["server/index.mjs"], {
      encoding: "utf8",
      timeout: 30_000,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        DATABASE_URL: database.url,
        SHOPIFY_API_KEY: "k",
        SHOPIFY_API_SECRET: "s",
        SHOPIFY_APP_URL: "https://x.example",
        PORT: "1",
      },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("SESSION_SECRET_KEY is required in production");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
