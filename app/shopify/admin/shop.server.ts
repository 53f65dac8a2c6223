import type { AdminResult, ShopifyGateway } from "./gateway.server";
import { QUERY_COSTS, SHOP_PROFILE_QUERY } from "./documents";
import type { ShopProfileQuery } from "./types/admin.generated";

export type ShopProfile = ShopProfileQuery["shop"];

export async function loadShopProfile(gateway: ShopifyGateway, shop: string): Promise<AdminResult<ShopProfile>> {
  const answer = await gateway.request(shop, SHOP_PROFILE_QUERY, {}, QUERY_COSTS.shopProfile, { waitThrottled: true });
  return answer.ok ? { ...answer, data: answer.data.shop } : answer;
}
