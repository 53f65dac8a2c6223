import { z } from "zod";
import type { ShopifyGateway } from "./gateway.server";
import { ORDER_NAMES_QUERY, QUERY_COSTS } from "./documents";
import { readNodes } from "./nodes.server";

const orderName = z.object({ id: z.string(), name: z.string() });

/**
 * Which of these orders Shopify shows this shop, by order gid: the order's name (#1340), or null
 * where Shopify answered without it (deleted, not this shop's, or older than the 60 days shown
 * without read_all_orders). An order left out of the map was not read: its request failed or
 * Shopify put an error in its place, and no answer is evidence. One nodes(ids:) request per 250
 * orders, through the throttle gate.
 */
export async function readOrdersShown(gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, string | null>> {
  const shown = new Map<string, string | null>();
  for (const [id, read] of await readNodes(
    gateway,
    shop,
    { query: ORDER_NAMES_QUERY, perNodeCost: QUERY_COSTS.orderNamesPerOrder, schema: orderName },
    orderGids,
  ))
    if (read.ok && (read.node === null || read.node.id === id)) shown.set(id, read.node?.name ?? null);
  return shown;
}

/** The names of these orders as Shopify has them (#1340), by order gid; an order Shopify does not show, or did not answer for, has none. */
export async function loadOrderNames(gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [id, name] of await readOrdersShown(gateway, shop, orderGids)) if (name !== null) names.set(id, name);
  return names;
}
