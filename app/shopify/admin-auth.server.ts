import { ShopifyError } from "@shopify/shopify-api";
import { config } from "../config/env.server";
import { authenticate } from "../shopify.server";

const refuse = (message: string) => new Response(message, { status: 400 });

/**
 * Where /auth/exit-iframe may send the admin's top window: the app itself, admin.shopify.com, or
 * the admin of the shop the request is for. Shopify's library (6.0.1) allows any
 * `*.myshopify.com/admin`; a link that leads a merchant to another shop's admin is an open
 * redirect all the same.
 */
export function isAllowedExit(target: string, appUrl: string, shop: string | null): boolean {
  if (/\s|\\/.test(target) || target.startsWith("//")) return false;
  let url: URL;
  try {
    url = new URL(target, appUrl);
  } catch {
    return false;
  }
  if (url.origin === new URL(appUrl).origin) return true;
  if (url.protocol !== "https:") return false;
  if (url.hostname === "admin.shopify.com") return true;
  return shop !== null && url.hostname === shop.toLowerCase() && /^\/admin(\/|$)/.test(url.pathname);
}

/** What the library would turn into a 500 or an open redirect: refused first, with a 400. */
function refuseUnsafeParameters(request: Request): void {
  const url = new URL(request.url);
  const host = url.searchParams.get("host");
  // The admin sends the base64 of its own host; the library's atob throws (a 500) on anything else.
  if (host !== null) {
    try {
      atob(host.replace(/-/g, "+").replace(/_/g, "/"));
    } catch {
      throw refuse("The host parameter is not one Shopify admin sends.");
    }
  }
  const exit = url.searchParams.get("exitIframe");
  if (url.pathname.endsWith("/auth/exit-iframe") && exit !== null && !isAllowedExit(exit, config().SHOPIFY_APP_URL ?? url.origin, url.searchParams.get("shop")))
    throw refuse("Refusing to send you there: that address is outside this app and your shop's admin.");
}

/**
 * authenticate.admin, except that a request the library refuses by throwing (a correctly signed
 * session token whose destination is not a shop: InvalidShopError) is a 401, not a 500, and
 * parameters the library would mishandle are a 400 before it sees them.
 */
export async function authenticateAdmin(request: Request): ReturnType<typeof authenticate.admin> {
  refuseUnsafeParameters(request);
  try {
    return await authenticate.admin(request);
  } catch (error) {
    if (error instanceof ShopifyError) throw new Response(`Unauthorized: ${error.message}`, { status: 401 });
    throw error;
  }
}
