import { FakeShopify } from "../../fake-shopify/server";
import { TEST_APP } from "../support/credentials";

export const SHOP = "fake.myshopify.com";

export function setup(options: { bucket?: { maximumAvailable?: number; restoreRate?: number }; currency?: string } = {}) {
  const shopify = new FakeShopify(TEST_APP, options.bucket);
  const shop = shopify.addShop(SHOP, options.currency);
  shopify.grantAccessToken(SHOP, "token");
  return { shopify, shop, api: shopify.api(SHOP) };
}

export function graphqlRequest(query: string, variables: Record<string, unknown> = {}, options: { version?: string; token?: string } = {}) {
  return new Request(`https://${SHOP}/admin/api/${options.version ?? "2026-10"}/graphql.json`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": options.token ?? "token" },
    body: JSON.stringify({ query, variables }),
  });
}

/** One Admin API request through `handle()`, as the app's HTTP client would send it. */
export async function graphql(
  shopify: FakeShopify,
  query: string,
  variables: Record<string, unknown> = {},
  options: { version?: string; token?: string } = {},
) {
  const response = await shopify.handle(graphqlRequest(query, variables, options));
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export const refundGid = (id: bigint) => `gid://shopify/Refund/${id}`;
export const orderGid = (id: bigint) => `gid://shopify/Order/${id}`;

export const REFUND_CREATE = `mutation RefundCreate($input: RefundInput!, $key: String!) {
  refundCreate(input: $input) @idempotent(key: $key) {
    refund { id totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } } transactions(first: 5) { nodes { kind status gateway amountSet { presentmentMoney { amount currencyCode } } } } }
    userErrors { field message }
  }
}`;

export const REFUND_CREATE_WITHOUT_KEY = `mutation RefundCreate($input: RefundInput!) {
  refundCreate(input: $input) { refund { id } userErrors { field message } }
}`;
