import { config } from "../lib/config/env.server";
/**
 * The demo and the tests point the app at a simulated Shopify on this machine. Such overrides are
 * honoured only for loopback origins, so a misconfigured production server cannot send access
 * tokens elsewhere or let another site frame the app.
 */
export function loopbackOrigin(value: string, variable: string): URL {
  const url = new URL(value);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
    throw new Error(`${variable} must be a loopback address (127.0.0.1, localhost or [::1]), got ${url.hostname}`);
  }
  return url;
}

/** SIMULATED_ADMIN_ORIGIN: the demo's simulated Shopify admin may frame the app, next to the shop and admin.shopify.com. */
export function allowSimulatedAdminToFrame(headers: Headers): void {
  const origin = config().SIMULATED_ADMIN_ORIGIN;
  const policy = headers.get("Content-Security-Policy");
  if (!origin || !policy) return;
  const allowed = loopbackOrigin(origin, "SIMULATED_ADMIN_ORIGIN").origin;
  headers.set(
    "Content-Security-Policy",
    policy.replace(/frame-ancestors ([^;]*)/, (_, list: string) => `frame-ancestors ${list} ${allowed}`),
  );
}

/**
 * APP_BRIDGE_URL: App Bridge served from elsewhere than Shopify's CDN (the demo's simulated admin). Shopify's library adds a
 * `Link: <https://cdn.shopify.com/shopifycloud/app-bridge.js>; rel=preload` header to every page
 * of an embedded app; with App Bridge served elsewhere that preload is a request that fails
 * offline (and a wasted one on a slow phone), so it names the script the page loads instead.
 */
export function preloadConfiguredAppBridge(headers: Headers): void {
  const url = config().APP_BRIDGE_URL;
  if (!url || !headers.get("Link")?.includes("cdn.shopify.com/shopifycloud/app-bridge.js")) return;
  headers.set("Link", `<${url}>; rel="preload"; as="script";`);
}
