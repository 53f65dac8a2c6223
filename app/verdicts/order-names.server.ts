import type { PrismaClient } from "@prisma/client";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { loadOrderNames } from "../shopify/admin/orders.server";

const orderGidOf = (orderId: string) => `gid://shopify/Order/${orderId}`;

/**
 * Asks Shopify for the names of these orders of one shop (one batched read) and stores each on
 * every operation of its order that has none, so an order is asked for once. An order Shopify
 * gave no name for (it did not answer, or shows no such order) is left out.
 */
async function nameOrders(db: PrismaClient, gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, string>> {
  const unnamed = [...new Set(orderGids)];
  if (!unnamed.length) return new Map();
  const names = await loadOrderNames(gateway, shop, unnamed);
  for (const [orderGid, orderName] of names) await db.operation.updateMany({ where: { shop, orderGid, orderName: null }, data: { orderName } });
  return names;
}

/**
 * Gives every row an order name before it is rendered: rows whose order has none yet (a refund
 * not read back: new, waiting, or one Shopify never showed) are named from Shopify first. A row
 * keeps its order's number where Shopify gave no name.
 */
export async function withOrderNames<Row extends { orderName: string | null; orderId: string }>(
  db: PrismaClient,
  gateway: ShopifyGateway,
  shop: string,
  rows: Row[],
): Promise<Row[]> {
  const names = await nameOrders(
    db,
    gateway,
    shop,
    rows.filter((row) => !row.orderName).map((row) => orderGidOf(row.orderId)),
  );
  return rows.map((row) => (row.orderName ? row : { ...row, orderName: names.get(orderGidOf(row.orderId)) ?? null }));
}

/** The same for operations of any shops (the alert pass), one read per shop. */
export async function withOperationOrderNames<Op extends { shop: string; orderGid: string; orderName: string | null }>(
  db: PrismaClient,
  gateway: ShopifyGateway,
  ops: Op[],
): Promise<Op[]> {
  const byShop = Map.groupBy(
    ops.filter((op) => !op.orderName),
    (op) => op.shop,
  );
  const names = new Map<string, string>();
  for (const [shop, unnamed] of byShop) {
    for (const [orderGid, name] of await nameOrders(
      db,
      gateway,
      shop,
      unnamed.map((op) => op.orderGid),
    ))
      names.set(`${shop} ${orderGid}`, name);
  }
  return ops.map((op) => (op.orderName ? op : { ...op, orderName: names.get(`${op.shop} ${op.orderGid}`) ?? null }));
}
