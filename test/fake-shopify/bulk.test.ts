import { afterEach, describe, expect, it } from "vitest";
import { BULK_OPERATION_STATE_QUERY, BULK_QUERY_RUN_MUTATION, historyBulkQuery } from "../../app/shopify/admin/documents";
import type { FakeShopify } from "../../fake-shopify/server";
import { graphql, orderGid, refundGid, setup, SHOP } from "./support";

let listening: FakeShopify | undefined;
afterEach(async () => listening?.close());

async function runBulk(shopify: FakeShopify, query: string) {
  const { body } = await graphql(shopify, BULK_QUERY_RUN_MUTATION, { query });
  return body.data.bulkOperationRunQuery as { bulkOperation: { id: string; status: string } | null; userErrors: { message: string; code: string }[] };
}

/** Moves Shopify's clock past the operation's run, and reads it finished. */
async function whenFinished(shopify: FakeShopify, id: string) {
  const now = shopify.now().getTime() + shopify.api(SHOP).bulk.runMs;
  shopify.now = () => new Date(now);
  const { body } = await graphql(shopify, BULK_OPERATION_STATE_QUERY, { id });
  expect(["CREATED", "RUNNING"]).not.toContain(body.data.node.status);
  return body.data.node;
}

describe("the fake's bulk operations, as Shopify's guide states them", () => {
  it("refuses a connection inside a list field, as Shopify does (Order.refunds is a list, Refund.transactions a connection)", async () => {
    const { shopify } = setup();
    const answer = await runBulk(shopify, "{ orders { edges { node { id refunds { id transactions { edges { node { id } } } } } } } }");
    expect(answer.bulkOperation).toBeNull();
    expect(answer.userErrors).toEqual([
      { field: ["query"], code: "INVALID", message: "Queries that contain a connection field within a list field are not currently supported." },
    ]);
  });

  it("refuses a query without a connection, and one nested deeper than two levels", async () => {
    const { shopify } = setup();
    expect((await runBulk(shopify, "{ shop { name } }")).userErrors.map((e) => e.message)).toEqual(["Bulk queries must contain at least one connection."]);
    const twoLevels = "{ orders { edges { node { id agreements { edges { node { id sales { edges { node { id } } } } } } } } } }";
    expect((await runBulk(shopify, twoLevels)).userErrors).toEqual([]);
    const threeLevels =
      "{ orders { edges { node { id fulfillmentOrders { edges { node { id fulfillments { edges { node { id fulfillmentLineItems { edges { node { id } } } } } } } } } } } } }";
    expect((await runBulk(shopify, threeLevels)).userErrors.map((e) => e.message)).toEqual([
      "Bulk queries cannot contain connections with a nesting depth greater than 2.",
    ]);
  });

  it("runs the app's history query and writes its JSONL: children after their parent, not next to it, joined by __parentId", async () => {
    const { shopify, shop } = setup();
    const base = await shopify.listen();
    listening = shopify;
    const order = shop.createOrder({ amount: "90.00", createdAt: new Date(Date.now() - 86_400_000) });
    const refund = shop.createRefund(order.id, { amount: "30.00", createdAt: new Date(Date.now() - 3600_000) });
    shop.createRefund(shop.createOrder({ amount: "10.00" }).id, { amount: "10.00" });
    const started = await runBulk(shopify, historyBulkQuery(new Date(Date.now() - 2 * 86_400_000)));
    expect(started.userErrors).toEqual([]);
    const finished = await whenFinished(shopify, started.bulkOperation!.id);
    expect(finished).toMatchObject({ status: "COMPLETED", errorCode: null, objectCount: "6", rootObjectCount: "2" });
    expect(finished.url.startsWith(`${base}/bulk-results/`)).toBe(true);
    const lines = (await (await fetch(finished.url)).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => l.id.split("/")[3])).toEqual(["Order", "Order", "SalesAgreement", "SalesAgreement", "OrderTransaction", "OrderTransaction"]);
    const agreement = lines.find((l) => l.refund?.id === refundGid(refund.id));
    expect(agreement).toMatchObject({
      __parentId: orderGid(order.id),
      refund: { order: { id: orderGid(order.id) }, totalRefundedSet: { presentmentMoney: { amount: "30.0" } } },
    });
    expect(lines.find((l) => l.__parentId === agreement.id)).toMatchObject({ kind: "REFUND", status: "SUCCESS" });
  });

  it("FAILED with an error code, a URL that expires (404), and more bulk queries than Shopify runs at once", async () => {
    const { shopify, api } = setup();
    await shopify.listen();
    listening = shopify;
    api.bulk.failNext = "INTERNAL_SERVER_ERROR";
    const failed = await whenFinished(shopify, (await runBulk(shopify, historyBulkQuery(new Date(0)))).bulkOperation!.id);
    expect([failed.status, failed.errorCode, failed.url]).toEqual(["FAILED", "INTERNAL_SERVER_ERROR", null]);
    const done = await whenFinished(shopify, (await runBulk(shopify, historyBulkQuery(new Date(0)))).bulkOperation!.id);
    api.bulk.expireResults();
    expect((await fetch(done.url)).status).toBe(404);
    expect((await graphql(shopify, BULK_OPERATION_STATE_QUERY, { id: done.id })).body.data.node.status).toBe("EXPIRED");
    api.bulk.concurrencyLimit = 1;
    api.bulk.runMs = 10_000;
    expect((await runBulk(shopify, historyBulkQuery(new Date(0)))).userErrors).toEqual([]);
    expect((await runBulk(shopify, historyBulkQuery(new Date(0)))).userErrors.map((e) => e.code)).toEqual(["OPERATION_IN_PROGRESS"]);
  });
});
