import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/lib/db/client";
import { FakeShopify } from "../../fake-shopify/server";
import type { FakeShop } from "../../fake-shopify/shop";
import { startAppProcess } from "../../scripts/demo-server";
import { TEST_APP } from "../support/credentials";
import { createTestDatabase } from "../support/database";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop } from "../support/sessions";

// A hurried person and a retrying network against the app as `npm start` runs it: two processes
// (WEB_CONCURRENCY=2) on this run's database, requests sent at the same instant.
const SHOP = "races.myshopify.com";
const FORM = "routes/app.orders.$orderId.refund";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: PrismaClient;
let shopify: FakeShopify;
let shop: FakeShop;
let app: Awaited<ReturnType<typeof startAppProcess>>;
let asStaff: ReturnType<typeof embeddedFetch>;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPrismaClient(database.url);
  shopify = new FakeShopify(TEST_APP, { maximumAvailable: 20_000, restoreRate: 10_000 });
  const origin = await shopify.listen();
  await installShop(db, shopify, SHOP);
  shop = shopify.shop(SHOP);
  app = await startAppProcess({
    port: "free",
    databaseUrl: database.url,
    shopifyOrigin: origin,
    log: "ignore",
    // Fifty forms at once on a busy machine can keep the fake Shopify from answering within the
    // production limit (10 s); what is tested here is the race, not a slow Shopify (faults.e2e is).
    env: { VERIFIER_WORKER: "off", WEB_CONCURRENCY: "2", VERIFIER_REQUEST_TIMEOUT_MS: "60000" },
  });
  asStaff = embeddedFetch(app.url, SHOP);
});

afterAll(async () => {
  await app?.stop();
  await shopify?.close();
  await db?.$disconnect();
  await database?.drop();
});

/** The refund form as a person opens it: its one-time token. */
async function openForm(orderId: bigint): Promise<string> {
  const data = await (await asStaff(dataPath(`/app/orders/${orderId}/refund`, FORM))).json();
  return data.formToken;
}

const submit = (orderId: bigint, fields: Record<string, string>) =>
  asStaff(dataPath(`/app/orders/${orderId}/refund`, FORM), { method: "POST", body: new URLSearchParams({ intent: "issue", ...fields }) });

const refundsInShopify = (orderId: bigint) => shop.orders.get(orderId)!.refundIds.length;

describe("one refund per intent", () => {
  it("50 submits at once from 50 open forms (tabs, people) make exactly one refund in Shopify", async () => {
    const order = shop.createOrder({ amount: "100.00" });
    const tokens = await Promise.all(Array.from({ length: 50 }, () => openForm(order.id)));
    expect(new Set(tokens).size).toBe(50);
    const answers = await Promise.all(tokens.map((formToken) => submit(order.id, { amount: "10.00", formToken })));
    const statuses = answers.map((a) => a.status);
    expect(refundsInShopify(order.id)).toBe(1);
    expect(shopify.api(SHOP).stats.refundCreateCalls).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The others are told why, in words: a refund was just made (confirm to make another), or one is being made.
    const refused = await Promise.all(answers.filter((a) => a.status !== 200).map((a) => a.json()));
    expect(refused.every((r) => r.code === "RECENT_REFUND" || r.code === "IN_PROGRESS")).toBe(true);
    expect(await db.refundRecord.count({ where: { orderId: `gid://shopify/Order/${order.id}` } })).toBe(1);
  });

  it("a double click (one form sent six times at once) is one refund, and every answer names it", async () => {
    const order = shop.createOrder({ amount: "80.00" });
    const formToken = await openForm(order.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => submit(order.id, { amount: "12.50", formToken })));
    const bodies = await Promise.all(answers.map((a) => a.json()));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(bodies.map((b) => b.sysId)).size).toBe(1);
    expect(refundsInShopify(order.id)).toBe(1);
  });

  it("a deliberate second refund still goes through the confirmation, from a form of its own", async () => {
    const order = shop.createOrder({ amount: "80.00" });
    expect((await submit(order.id, { amount: "12.50", formToken: await openForm(order.id) })).status).toBe(200);
    const refused = await submit(order.id, { amount: "3.00", formToken: await openForm(order.id) });
    expect([refused.status, (await refused.json()).code]).toEqual([409, "RECENT_REFUND"]);
    expect((await submit(order.id, { amount: "3.00", confirmAnother: "yes", formToken: await openForm(order.id) })).status).toBe(200);
    expect(refundsInShopify(order.id)).toBe(2);
  });
});
