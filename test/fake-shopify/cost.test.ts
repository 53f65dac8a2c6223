import { describe, expect, it } from "vitest";
import { waitFor } from "../support/wait";
import { requestedQueryCost } from "../../fake-shopify/cost";
import { graphql, orderGid, refundGid, setup } from "./support";

describe("query cost", () => {
  it("prices objects 1, scalars 0, connections 2 + first × element with pageInfo once, lists with first, nodes per id, mutations 10", () => {
    expect(requestedQueryCost(`{ shop { name } }`)).toBe(1);
    expect(requestedQueryCost(`{ orders(first: 10) { nodes { id } pageInfo { hasNextPage } } }`)).toBe(2 + 10 + 1);
    expect(requestedQueryCost(`{ orders(first: 3) { edges { cursor node { id } } } }`)).toBe(2 + 3 * 2);
    expect(requestedQueryCost(`query($id: ID!) { order(id: $id) { refunds(first: 5) { id totalRefundedSet { shopMoney { amount } } } } }`, { id: "x" })).toBe(
      1 + 5 * (1 + 2),
    );
    expect(requestedQueryCost(`query($ids: [ID!]!) { nodes(ids: $ids) { ... on Refund { id order { id } } } }`, { ids: ["a", "b", "c"] })).toBe(3 * (1 + 1));
    expect(requestedQueryCost(`mutation($input: RefundInput!) { refundCreate(input: $input) { refund { id } userErrors { message } } }`, { input: {} })).toBe(
      10 + 1 + 1,
    );
  });

  it("prices an abstract type by its most expensive possible selection, named fragments included", () => {
    const query = `query($id: ID!) { node(id: $id) { id ... on Refund { order { id } } ...OrderParts } }
      fragment OrderParts on Order { totalPriceSet { shopMoney { amount } presentmentMoney { amount } } }`;
    expect(requestedQueryCost(query, { id: "x" })).toBe(1 + 3);
  });

  it("prices a list selected without `first` as one element: the actual cost counts what came back", async () => {
    const query = `query($id: ID!) { order(id: $id) { refunds { id totalRefundedSet { shopMoney { amount } } } } }`;
    expect(requestedQueryCost(query, { id: "x" })).toBe(1 + 1 + 2);
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "30.00" });
    for (let i = 0; i < 3; i++) shop.createRefund(order.id, { amount: "1.00" });
    const { body } = await graphql(shopify, query, { id: orderGid(order.id) });
    expect(body.extensions.cost.requestedQueryCost).toBe(4);
    expect(body.extensions.cost.actualQueryCost).toBe(1 + 3 * (1 + 2));
  });

  it("counts the actual cost of a connection by the elements returned", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "30.00" });
    const refund = shop.createRefund(order.id, { amount: "1.00" });
    const { body } = await graphql(
      shopify,
      `
        query ($id: ID!) {
          refund(id: $id) {
            transactions(first: 5) {
              nodes {
                id
              }
              pageInfo {
                hasNextPage
              }
            }
          }
        }
      `,
      { id: refundGid(refund.id) },
    );
    expect(body.extensions.cost).toMatchObject({ requestedQueryCost: 1 + 2 + 5 + 1, actualQueryCost: 1 + 2 + 1 + 1 });
  });

  it("refuses a query over 1,000 points before running it", async () => {
    const { shopify } = setup();
    const { body } = await graphql(
      shopify,
      `
        {
          orders(first: 250) {
            nodes {
              refunds(first: 10) {
                id
              }
            }
          }
        }
      `,
    );
    expect(body.errors[0].extensions.code).toBe("MAX_COST_EXCEEDED");
  });
  it("charges the bucket when a request arrives, before a slow answer leaves (Shopify prices a query before it runs it)", async () => {
    const { shopify } = setup({ bucket: { maximumAvailable: 100, restoreRate: 1 } });
    const bucketMs = Date.now();
    shopify.bucketNowMs = () => bucketMs;
    shopify.inject({ kind: "held" });
    const shopName = `{ shop { name } }`;
    const answer = graphql(shopify, shopName);
    await waitFor("the first request to arrive", () => shopify.heldAnswers.held === 1);
    // While the answer is still held back, a second request already sees the first one's point gone.
    const meanwhile = await graphql(shopify, shopName);
    expect(meanwhile.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(98);
    shopify.heldAnswers.open();
    expect((await answer).body.data.shop.name).toBeTruthy();
  });
});
