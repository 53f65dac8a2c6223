import type { ShopifyGateway } from "./gateway.server";
import { ORDER_NAMES_QUERY, QUERY_COSTS } from "./documents";
import { MAX_IDS_PER_REQUEST } from "./refund-readback.server";

/**
 * Which of these orders Shopify shows this shop, by order gid: the order's name (#1340), or null
 * where Shopify answered without it (deleted, not this shop's, or older than the 60 days shown
 * without read_all_orders). An order left out of the map was not read: its request failed or
 * Shopify put an error in its place, and no answer is evidence. One nodes(ids:) request per 250
 * orders, through the throttle gate.
 */
export async function readOrdersShown(gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, string | null>> {
  const shown = new Map<string, string | null>();
  const unique = [...new Set(orderGids)];
  for (let start = 0; start < unique.length; start += MAX_IDS_PER_REQUEST) {
    const ids = unique.slice(start, start + MAX_IDS_PER_REQUEST);
    const answer = await gateway.request(shop, ORDER_NAMES_QUERY, { ids }, ids.length * QUERY_COSTS.orderNamesPerOrder, { waitThrottled: true });
    if (!answer.ok) break;
    const nodes = answer.data.nodes;
    if (!Array.isArray(nodes) || nodes.length !== ids.length) continue;
    const withError = new Set(answer.fieldErrors.filter((e) => e.path?.[0] === "nodes" && typeof e.path[1] === "number").map((e) => e.path![1] as number));
    for (const [index, id] of ids.entries()) {
      if (withError.has(index)) continue;
      const node = nodes[index];
      if (node === null) shown.set(id, null);
      else if ("name" in node && node.id === id) shown.set(id, node.name);
    }
  }
  return shown;
}

/** The names of these orders as Shopify has them (#1340), by order gid; an order Shopify does not show, or did not answer for, has none. */
export async function loadOrderNames(gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [id, name] of await readOrdersShown(gateway, shop, orderGids)) if (name !== null) names.set(id, name);
  return names;
}
