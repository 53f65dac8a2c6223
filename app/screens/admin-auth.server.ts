import { ShopifyError } from "@shopify/shopify-api";
import { config } from "../lib/config/env.server";
import { authenticate } from "../shopify.server";
import { shopOfSessionToken } from "../shopify/session-token.server";

const refuse = (message: string) => new Response(message, { status: 400 });

/**
 * Where /auth/exit-iframe may send the admin's top window: the app itself, or the admin of the
 * shop whose session token the request carries (`id_token`, signed with the app's secret).
 * Shopify's library (6.0.1) allows any `*.myshopify.com/admin`, and the `shop` parameter is
 * anyone's to write: a link on this app's address that opens another shop's admin is an open
 * redirect all the same (issue 42). The app's own auth flow exits to the app itself.
 */
export function isAllowedExit(target: string, appUrl: string, verifiedShop: string | null): boolean {
  if (/\s|\\/.test(target) || target.startsWith("//")) return false;
  let url: URL;
  try {
    url = new URL(target, appUrl);
  } catch {
    return false;
  }
  if (url.origin === new URL(appUrl).origin) return true;
  if (url.protocol !== "https:" || verifiedShop === null) return false;
  const shop = verifiedShop.toLowerCase();
  const store = `/store/${shop.replace(/\.myshopify\.com$/, "")}`;
  if (url.hostname === "admin.shopify.com") return url.pathname === store || url.pathname.startsWith(`${store}/`);
  return url.hostname === shop && /^\/admin(\/|$)/.test(url.pathname);
}

const verifiedShopOf = (idToken: string | null) =>
  idToken ? shopOfSessionToken(idToken, { apiKey: config().SHOPIFY_API_KEY, secret: config().SHOPIFY_API_SECRET }) : null;

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
  if (!url.pathname.endsWith("/auth/exit-iframe") || exit === null) return;
  if (!isAllowedExit(exit, config().SHOPIFY_APP_URL ?? url.origin, verifiedShopOf(url.searchParams.get("id_token"))))
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
