// `npm run demo`: the app on SQLite against a simulated Shopify, on this machine only. Opens no
// connection beyond loopback and needs no Shopify account. Ctrl-C stops everything.
import { startDemo } from "./demo-server";

const demo = await startDemo({
  appPort: Number(process.env.PORT || 3000),
  shopifyPort: Number(process.env.DEMO_SHOPIFY_PORT || 4100),
  shop: process.env.DEMO_SHOP || "demo-refunds.myshopify.com",
  databaseUrl: process.env.DATABASE_URL || "file:./prisma/demo.sqlite",
  keepData: Boolean(process.env.DEMO_KEEP_DATA),
  preInstallRefunds: 240,
});

console.log(`
Refund Verifier demo is running.
  Open in your browser:  ${demo.adminUrl}
  (a simulated Shopify admin framing the app, which runs at ${demo.appUrl})
  ${demo.traffic.describe()}
New refunds keep arriving every few seconds. Ctrl-C stops it.`);

const stop = () => void demo.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
