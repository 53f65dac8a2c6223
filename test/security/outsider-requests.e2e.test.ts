import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/lib/db/client";
import { FakeShopify } from "../../fake-shopify/server";
import { startAppProcess } from "../../scripts/demo-server";
import { TEST_APP } from "../support/credentials";
import { createTestDatabase } from "../support/database";
import { CHROME_UA } from "../support/embedded";
import { mintSessionToken } from "../../fake-shopify/session-token";
import { installShop } from "../support/sessions";

// Requests anyone on the internet can send, without a session: the app as `npm start` runs it.
const SHOP = "outsider.myshopify.com";
const HOST = Buffer.from(`admin.shopify.com/store/outsider`).toString("base64url");
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: PrismaClient;
let shopify: FakeShopify;
let app: Awaited<ReturnType<typeof startAppProcess>>;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPrismaClient(database.url);
  shopify = new FakeShopify(TEST_APP);
  const origin = await shopify.listen();
  await installShop(db, shopify, SHOP);
  // Short timeouts, so that the slow-client attack is over in seconds.
  const env = { VERIFIER_WORKER: "off", HTTP_HEADERS_TIMEOUT_MS: "2000", HTTP_REQUEST_TIMEOUT_MS: "3000" };
  app = await startAppProcess({ port: "free", databaseUrl: database.url, shopifyOrigin: origin, log: "capture", env });
});

afterAll(async () => {
  await app?.stop();
  await shopify?.close();
  await db?.$disconnect();
  await database?.drop();
});

const get = (path: string) => fetch(`${app.url}${path}`, { headers: { "User-Agent": CHROME_UA }, redirect: "manual" });
const serving = async () => (await get("/healthz")).status === 200;

describe("redirects", () => {
  it.each(["https://evil.example/", "//evil.example/", "https://outsider.myshopify.com.evil.example/admin", "javascript:alert(1)"])(
    "/auth/exit-iframe to %s is refused (400) and leads nowhere",
    async (target) => {
      const response = await get(`/auth/exit-iframe?shop=${SHOP}&host=${HOST}&exitIframe=${encodeURIComponent(target)}`);
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).not.toContain("evil.example");
    },
  );

  const exitTo = (target: string, idToken?: string, shop = SHOP) =>
    get(`/auth/exit-iframe?shop=${shop}&host=${HOST}&exitIframe=${encodeURIComponent(target)}${idToken ? `&id_token=${idToken}` : ""}`);
  const tokenFor = (shop: string, secret = TEST_APP.secret) => mintSessionToken({ shop, apiKey: TEST_APP.apiKey, secret });

  it("/auth/exit-iframe to the shop's admin works for a request with that shop's session token", async () => {
    expect((await exitTo(`https://${SHOP}/admin/apps`, tokenFor(SHOP))).status).toBe(200);
    expect((await exitTo("https://admin.shopify.com/store/outsider/apps", tokenFor(SHOP))).status).toBe(200);
  });

  // Issue 42, item 8: the `shop` parameter is anyone's to write; only a session token says which shop asks.
  const refused: { what: string; target: string; token?: () => string; shop?: string }[] = [
    {
      what: "the shop parameter alone, naming the store it sends to",
      target: "https://attacker-store.myshopify.com/admin/apps",
      shop: "attacker-store.myshopify.com",
    },
    { what: "no session token, even to the shop named", target: `https://${SHOP}/admin/apps` },
    { what: "another shop's session token", target: `https://${SHOP}/admin/apps`, token: () => tokenFor("attacker-store.myshopify.com") },
    { what: "a session token signed with another secret", target: `https://${SHOP}/admin/apps`, token: () => tokenFor(SHOP, "not-the-app-secret") },
    { what: "the shop's token, to another shop's admin", target: "https://attacker-store.myshopify.com/admin/apps", token: () => tokenFor(SHOP) },
    {
      what: "the shop's token, to another store on admin.shopify.com",
      target: "https://admin.shopify.com/store/attacker-store/apps",
      token: () => tokenFor(SHOP),
    },
  ];
  it.each(refused)("/auth/exit-iframe with $what is refused (400)", async ({ target, token, shop }) => {
    const response = await exitTo(target, token?.(), shop);
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).not.toContain("attacker-store");
  });
});

describe("bodies", () => {
  it("a form larger than 64 KiB is refused with 413 by its Content-Length, unread", async () => {
    const response = await fetch(`${app.url}/auth/login`, {
      method: "POST",
      headers: { "User-Agent": CHROME_UA, "Content-Type": "application/x-www-form-urlencoded" },
      body: `shop=${"x".repeat(200 * 1024)}`,
    });
    expect(response.status).toBe(413);
    expect(await serving()).toBe(true);
  });

  it("a form streamed past 64 KiB without a Content-Length is refused with 413", async () => {
    const chunk = new TextEncoder().encode(`shop=${"x".repeat(16 * 1024)}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(`${app.url}/auth/login`, {
      method: "POST",
      headers: { "User-Agent": CHROME_UA, "Content-Type": "application/x-www-form-urlencoded" },
      body: stream,
      duplex: "half",
    } as RequestInit).catch((error: Error) => error);
    if (response instanceof Response) expect(response.status).toBe(413);
    expect(await serving()).toBe(true);
  });

  it("many large bodies at once leave the process serving, its memory bounded", async () => {
    const big = "x".repeat(2 * 1024 * 1024);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${app.url}/auth/login`, { method: "POST", headers: { "User-Agent": CHROME_UA, "Content-Type": "text/plain" }, body: big }).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    expect(answers).toEqual(Array(8).fill(413));
    expect(await serving()).toBe(true);
  });

  it("a client that sends its request a byte at a time is cut off, and the server keeps serving", async () => {
    const port = Number(new URL(app.url).port);
    const closedAfter = await new Promise<number>((resolve) => {
      const started = Date.now();
      const socket = connect(port, "127.0.0.1", () => {
        socket.write("POST /webhooks/app/uninstalled HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n");
        const drip = setInterval(() => socket.writable && socket.write("x"), 500);
        socket.once("close", () => {
          clearInterval(drip);
          resolve(Date.now() - started);
        });
      });
      socket.on("error", () => undefined);
      socket.on("data", () => undefined);
    });
    expect(closedAfter).toBeLessThan(15_000);
    expect(await serving()).toBe(true);
  });
});

describe("malformed input", () => {
  it("an embedded page with a host that is not Shopify's is a 400, not a 500", async () => {
    const response = await get(`/app?shop=${SHOP}&host=x&embedded=1`);
    expect(response.status).toBe(400);
    expect(await serving()).toBe(true);
  });
});
