// `npm run demo`: the app on SQLite against a simulated Shopify, on this machine only. Opens no
// connection beyond loopback and needs no Shopify account. Ctrl-C stops everything.
import { spawn, execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { FakeShopify } from "../fake-shopify/server";
import { adminSurface } from "../fake-shopify/admin-surface";
import { mintSessionToken } from "../fake-shopify/session-token";
import { TEST_APP } from "../test/support/credentials";
import { startDemoTraffic } from "./demo-traffic";

const root = new URL("..", import.meta.url).pathname;
const APP_PORT = Number(process.env.PORT || 3000);
const SHOPIFY_PORT = Number(process.env.DEMO_SHOPIFY_PORT || 4100);
const SHOP = process.env.DEMO_SHOP || "demo-refunds.myshopify.com";
const DATABASE_URL = process.env.DATABASE_URL || "file:./prisma/demo.sqlite";
const appUrl = `http://localhost:${APP_PORT}`;

function run(command: string, args: string[], env: Record<string, string> = {}) {
  execFileSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, CHECKPOINT_DISABLE: "1", ...env } });
}

if (DATABASE_URL.startsWith("file:") && !process.env.DEMO_KEEP_DATA) {
  for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${root}prisma/demo.sqlite${suffix}`, { force: true });
}
console.log("▶ database (SQLite)");
run("node", ["scripts/db.mjs", "setup"], { DATABASE_URL });
console.log("▶ building the app");
run("node_modules/.bin/remix", ["vite:build"]);

const shopify = new FakeShopify(TEST_APP);
shopify.addShop(SHOP, "USD");
const shopifyOrigin = await shopify.listen(SHOPIFY_PORT, adminSurface(TEST_APP, () => appUrl, () => [...shopify.shops.keys()]));

const server = spawn("node_modules/.bin/remix-serve", ["build/server/index.js"], {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
  detached: true,
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(APP_PORT),
    DATABASE_URL,
    SHOPIFY_API_KEY: TEST_APP.apiKey,
    SHOPIFY_API_SECRET: TEST_APP.secret,
    SCOPES: TEST_APP.scopes,
    SHOPIFY_APP_URL: appUrl,
    SHOPIFY_ADMIN_API_ORIGIN: shopifyOrigin,
    APP_BRIDGE_URL: `${shopifyOrigin.replace("127.0.0.1", "localhost")}/demo/app-bridge.js`,
    SIMULATED_ADMIN_ORIGIN: shopifyOrigin.replace("127.0.0.1", "localhost"),
    // The demo's lost webhooks are found within half a minute rather than 15.
    VERIFIER_SWEEP_INTERVAL_MS: process.env.VERIFIER_SWEEP_INTERVAL_MS || "20000",
  },
});
const stop = () => {
  try {
    process.kill(-server.pid!, "SIGTERM");
  } catch {
    /* already gone */
  }
  void shopify.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => {
  console.error(`the app stopped (exit ${code})`);
  process.exit(1);
});

for (let i = 0; ; i++) {
  const up = await fetch(`${appUrl}/healthz`).then((r) => r.ok, () => false);
  if (up) break;
  if (i > 100) throw new Error("the app did not start");
  await new Promise((resolve) => setTimeout(resolve, 200));
}

// Install the app in the simulated shop the way the admin does: an embedded request with a
// session token, which the app exchanges for an offline token. Shopify sends webhooks only then.
const installUrl = `${appUrl}/app?embedded=1&shop=${SHOP}&host=${Buffer.from(`admin.shopify.com/store/${SHOP.split(".")[0]}`).toString("base64url")}&id_token=${mintSessionToken({ shop: SHOP, apiKey: TEST_APP.apiKey, secret: TEST_APP.secret })}`;
const installed = await fetch(installUrl, { headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" } });
if (!installed.ok) throw new Error(`installing the app in the simulated shop failed: HTTP ${installed.status}`);

const traffic = await startDemoTraffic({ shopify, shop: SHOP, appUrl, secret: TEST_APP.secret });
const adminUrl = `${shopifyOrigin.replace("127.0.0.1", "localhost")}/store/${SHOP.replace(".myshopify.com", "")}/apps/refund-verifier`;
console.log(`
Refund Verifier demo is running.
  Open in your browser:  ${adminUrl}
  (a simulated Shopify admin framing the app, which runs at ${appUrl})
  ${traffic.describe()}
Ctrl-C stops it.`);
