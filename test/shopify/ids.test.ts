import { describe, expect, it } from "vitest";
import { orderGidInAddress, shopifyGidSchema, shopifyNumberSchema } from "../../app/shopify/ids";

// The one rule for a Shopify id from outside: its number as Shopify writes it, or refused. The e2e tests show what each
// door (the refund form, the order block, refunds/create, the compliance topics) answers; this is the rule itself.
describe("a Shopify id from outside", () => {
  it("is taken as Shopify writes its number: digits without leading zeros, as text or a JSON integer", () => {
    expect(shopifyNumberSchema.parse("1001")).toBe("1001");
    expect(shopifyNumberSchema.parse(1001)).toBe("1001");
    expect(shopifyNumberSchema.parse("890088186047892319")).toBe("890088186047892319");
    expect(orderGidInAddress("1001")).toBe("gid://shopify/Order/1001");
    expect(shopifyGidSchema("Refund").parse("gid://shopify/Refund/7")).toBe("gid://shopify/Refund/7");
  });

  it("is refused in any other spelling of a number, never read as the number it could mean", () => {
    for (const spelled of ["0123", "00", "0", "-5", "+5", " 5", "5 ", "1e3", "0x1F", "١٢٣", "", "12a"]) {
      expect(shopifyNumberSchema.safeParse(spelled).success, spelled).toBe(false);
      expect(orderGidInAddress(spelled), spelled).toBeUndefined();
    }
    for (const number of [0, -5, 1.5, Number.MAX_SAFE_INTEGER + 2, Number.NaN])
      expect(shopifyNumberSchema.safeParse(number).success, String(number)).toBe(false);
    expect(orderGidInAddress(undefined)).toBeUndefined();
    expect(orderGidInAddress("gid://shopify/Order/1001")).toBeUndefined();
    for (const gid of ["gid://shopify/Refund/0123", "gid://shopify/Refund/0", "gid://shopify/Order/7", "gid://shopify/Refund/7?x=1", "gid://shopify/Refund/"]) {
      expect(shopifyGidSchema("Refund").safeParse(gid).success, gid).toBe(false);
    }
  });

  it("says why in words a webhook's answer can carry", () => {
    const refused = shopifyNumberSchema.safeParse("0123");
    expect(refused.success ? "" : refused.error.issues[0].message).toMatch(/without leading zeros/);
    const missing = shopifyNumberSchema.safeParse(undefined);
    expect(missing.success ? "" : missing.error.issues[0].message).toBe("Required");
  });
});
