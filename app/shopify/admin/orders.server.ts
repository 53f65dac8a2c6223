import type { ShopifyGateway } from "./gateway.server";
import { ORDER_NAMES_QUERY, QUERY_COSTS } from "./documents";
import { MAX_IDS_PER_REQUEST } from "./refund-readback.server";

/**
 * The names of these orders as Shopify has them (#1340), by order gid: one nodes(ids:) request
 * per 250 orders, through the throttle gate. An order Shopify does not show (deleted, or not
 * this shop's) has no name; a request that fails leaves its orders unnamed this time.
 */
export async function loadOrderNames(gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let start = 0; start < orderGids.length; start += MAX_IDS_PER_REQUEST) {
    const ids = orderGids.slice(start, start + MAX_IDS_PER_REQUEST);
    const answer = await gateway.request(shop, ORDER_NAMES_QUERY, { ids }, ids.length * QUERY_COSTS.orderNamesPerOrder, { waitThrottled: true });
    if (!answer.ok) break;
    for (const node of answer.data.nodes) if (node && "name" in node && ids.includes(node.id)) names.set(node.id, node.name);
  }
  return names;
}
