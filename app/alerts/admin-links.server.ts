/**
 * A page of the app inside Shopify admin, for messages read outside it (email, Slack, Flow):
 * admin.shopify.com/store/{store}/apps/{client id}{path} opens the embedded app at /app{path}.
 * The demo's simulated admin stands in for admin.shopify.com.
 */
export const storeName = (shop: string) => shop.replace(/\.myshopify\.com$/, "");

export function adminAppUrl(shop: string, path = ""): string {
  const store = storeName(shop);
  const simulated = process.env.SIMULATED_ADMIN_ORIGIN;
  if (simulated) return `${simulated}/store/${store}/apps/refund-verifier${path}`;
  return `https://admin.shopify.com/store/${store}/apps/${process.env.SHOPIFY_API_KEY ?? ""}${path}`;
}

export const evidencePath = (operationId: string) => `/refunds/${operationId}`;
