/**
 * The optional scopes that let the app read Shopify Payments' ledger: the 2026-10 schema says
 * ShopifyPaymentsAccount "Requires the read_shopify_payments or read_shopify_payments_accounts
 * approval scope", and its balance transactions and payouts need access to payouts. Both are
 * approval scopes: Shopify grants them to an app it approved for them. (Not a server module: the
 * evidence page's button asks for them through App Bridge.)
 */
export const PAYMENTS_SCOPES = ["read_shopify_payments_accounts", "read_shopify_payments_payouts"] as const;

export function grantsPayouts(scope: string | null | undefined): boolean {
  const granted = new Set((scope ?? "").split(","));
  // read_shopify_payments covers both; a write_ scope implies its read_ scope.
  return granted.has("read_shopify_payments") || PAYMENTS_SCOPES.every((s) => granted.has(s) || granted.has(s.replace(/^read_/, "write_")));
}
