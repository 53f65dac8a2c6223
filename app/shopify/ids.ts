import { z } from "zod";

/**
 * A Shopify id that comes from outside (an address of the app, a webhook's body), read once, at
 * the door. Shopify writes a resource's number one way: digits, no leading zeros, never 0. Any
 * other spelling is refused, not read as the number it could mean: the app keys an order's lock,
 * its attempt count and its recent refunds, and a refund's deliveries, on the id as text, so "0123"
 * beside "123" would be a second order to each of them (one refund at a time per order, passed by
 * spelling the order differently). Pure: the refund form's schema and the extension may import it.
 */
const SHOPIFY_NUMBER = /^[1-9]\d*$/;

/** Why a number was refused, in words a webhook's answer and a log line carry. */
export const NOT_SHOPIFY_NUMBER = "not a Shopify id: Shopify writes its number in digits, without leading zeros";

/** What a person reads for an address of the app that names no order as Shopify numbers them. */
export const NOT_AN_ORDER_ADDRESS =
  "This address does not name an order: an order's number is written in digits, without leading zeros. Find the order in Shopify admin and start from there.";

export type ShopifyResource = "Order" | "Refund" | "PointOfSaleDevice";

export const shopifyGid = (resource: ShopifyResource, number: string) => `gid://shopify/${resource}/${number}`;

/**
 * The number a global id ends in (gid://shopify/Order/123 → "123"): what the admin's addresses, a
 * payout's number and Flow's reference fields write. One Shopify gave, read where it is shown or
 * compared; an id that ends in no number is returned whole.
 */
export const numberOfGid = (gid: string): string => /\/(\d+)$/.exec(gid)?.[1] ?? gid;

/**
 * A resource's number as an address or a REST body writes it: text, or a JSON integer (one of 16
 * digits or more arrives as text, app/webhooks/lossless-json.ts). Its output is Shopify's digits.
 */
export const shopifyNumberSchema = z
  .union([z.string(), z.number().int().safe().transform(String)], {
    errorMap: (_, ctx) => ({ message: ctx.data === undefined ? "Required" : NOT_SHOPIFY_NUMBER }),
  })
  .refine((digits) => SHOPIFY_NUMBER.test(digits), NOT_SHOPIFY_NUMBER);

/** A resource's global id as the GraphQL API and REST's admin_graphql_api_id write it: gid://shopify/Refund/123. */
export const shopifyGidSchema = (resource: ShopifyResource) =>
  z
    .string({ invalid_type_error: NOT_SHOPIFY_NUMBER })
    .refine((gid) => gid.startsWith(shopifyGid(resource, "")) && SHOPIFY_NUMBER.test(gid.slice(shopifyGid(resource, "").length)), NOT_SHOPIFY_NUMBER);

/** The order an address names by its number (/app/orders/123/refund) as its gid; undefined for any other spelling. */
export function orderGidInAddress(number: string | undefined): string | undefined {
  const parsed = shopifyNumberSchema.safeParse(number);
  return parsed.success ? shopifyGid("Order", parsed.data) : undefined;
}
