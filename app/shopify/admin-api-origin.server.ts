import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { loopbackOrigin } from "./loopback.server";

/**
 * For the demo and the tests only: SHOPIFY_ADMIN_API_ORIGIN sends every request that the Shopify
 * libraries make to `https://{shop}.myshopify.com` (Admin API, token exchange) to a simulated shop
 * on this machine instead, with the shop's domain in X-Forwarded-Host.
 */
export function routeShopRequestsTo(origin: string): void {
  const target = loopbackOrigin(origin, "SHOPIFY_ADMIN_API_ORIGIN");
  const realFetch = globalThis.fetch;
  setAbstractFetchFunc(async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit);
    const url = new URL(request.url);
    if (!url.hostname.endsWith(".myshopify.com")) return realFetch(request);
    const rerouted = new URL(url.pathname + url.search, target);
    const headers = new Headers(request.headers);
    headers.set("X-Forwarded-Host", url.hostname);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    return realFetch(rerouted.toString(), { method: request.method, headers, body, signal: request.signal });
  });
}
