import { config } from "../lib/config/env.server";
/**
 * A page of the app inside Shopify admin, for messages read outside it (email, Slack, Flow):
 * admin.shopify.com/store/{store}/apps/{client id}{path} opens the embedded app at /app{path}.
 * The demo's simulated admin stands in for admin.shopify.com.
 */
export const storeName = (shop: string) => shop.replace(/\.myshopify\.com$/, "");

export function adminAppUrl(shop: string, path = ""): string {
  const store = storeName(shop);
  const { SIMULATED_ADMIN_ORIGIN: simulated, SHOPIFY_API_KEY } = config();
  if (simulated) return `${simulated.replace(/\/$/, "")}/store/${store}/apps/refund-verifier${path}`;
  return `https://admin.shopify.com/store/${store}/apps/${SHOPIFY_API_KEY}${path}`;
}

export const evidencePath = (operationId: string) => `/refunds/${operationId}`;

/** A refund request's page, where an approver approves or declines it (app/routes/app.approvals.$id). */
export const approvalPath = (requestId: string) => `/approvals/${requestId}`;
