import { config } from "../config/env.server";
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
