import { describe, expect, it } from "vitest";
import { LostAnswerError } from "../../fake-shopify/server";
import { refundWebhookBody } from "../../fake-shopify/webhooks";
import { graphql, graphqlRequest, orderGid, REFUND_CREATE, refundGid, setup } from "./support";

const READBACK = `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Refund { id totalRefundedSet { shopMoney { amount } } } } }`;

describe("split refunds", () => {
  it("refundCreate makes one REFUND transaction per input transaction, on its gateway and parent", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({
      amount: "100.00",
      payments: [
        { gateway: "shopify_payments", amount: "70.00" },
        { gateway: "gift_card", amount: "30.00" },
      ],
    });
    const [card, giftCard] = shop.captures(order);
    const id = orderGid(order.id);
    const { body } = await graphql(shopify, REFUND_CREATE, {
      key: "split",
      input: {
        orderId: id,
        transactions: [
          { amount: "40.00", gateway: "shopify_payments", kind: "REFUND", orderId: id, parentId: `gid://shopify/OrderTransaction/${card.id}` },
          { amount: "25.00", gateway: "gift_card", kind: "REFUND", orderId: id, parentId: `gid://shopify/OrderTransaction/${giftCard.id}` },
        ],
      },
    });
    expect(body.data.refundCreate.userErrors).toEqual([]);
    expect(body.data.refundCreate.refund.transactions.nodes.map((n: { gateway: string; status: string }) => [n.gateway, n.status])).toEqual([
      ["shopify_payments", "SUCCESS"],
      ["gift_card", "SUCCESS"],
    ]);
    const refund = [...shop.refunds.values()][0];
    expect(refund.transactionIds.map((t) => shop.transactions.get(t)!.parentId)).toEqual([card.id, giftCard.id]);
    const suggested = await graphql(
      shopify,
      `
        query ($id: ID!) {
          order(id: $id) {
            suggestedRefund(suggestFullRefund: true) {
              suggestedTransactions {
                gateway
                amountSet {
                  presentmentMoney {
                    amount
                  }
                }
              }
            }
          }
        }
      `,
      { id },
    );
    expect(suggested.body.data.order.suggestedRefund.suggestedTransactions).toEqual([
      { gateway: "shopify_payments", amountSet: { presentmentMoney: { amount: "30.0" } } },
      { gateway: "gift_card", amountSet: { presentmentMoney: { amount: "5.0" } } },
    ]);
  });

  it("a test can make a split refund whose second transaction FAILED", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({
      amount: "100.00",
      payments: [
        { gateway: "shopify_payments", amount: "70.00" },
        { gateway: "gift_card", amount: "30.00" },
      ],
    });
    const refund = shop.createRefund(order.id, {
      transactions: [
        { amount: "40.00", gateway: "shopify_payments" },
        { amount: "30.00", gateway: "gift_card", status: "FAILURE" },
      ],
    });
    const { body } = await graphql(
      shopify,
      `
        query ($id: ID!) {
          refund(id: $id) {
            transactions(first: 5) {
              nodes {
                gateway
                status
                errorCode
                parentTransaction {
                  gateway
                }
              }
            }
          }
        }
      `,
      { id: refundGid(refund.id) },
    );
    expect(body.data.refund.transactions.nodes).toEqual([
      { gateway: "shopify_payments", status: "SUCCESS", errorCode: null, parentTransaction: { gateway: "shopify_payments" } },
      { gateway: "gift_card", status: "FAILURE", errorCode: "CARD_DECLINED", parentTransaction: { gateway: "gift_card" } },
    ]);
    const webhook = JSON.parse(refundWebhookBody(shop, refund));
    expect(webhook.transactions.map((t: { gateway: string; status: string; amount: string }) => [t.gateway, t.status, t.amount])).toEqual([
      ["shopify_payments", "success", "40.00"],
      ["gift_card", "failure", "30.00"],
    ]);
    // The failed part is still refundable.
    expect(shop.refundableMinor(order)).toBe(6000n);
  });
});

describe("refunds the app may not read", () => {
  it("answers that node as null with an ACCESS_DENIED error at its path, and the other nodes as usual", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "90.00" });
    const refunds = ["10.00", "20.00", "30.00"].map((amount) => shop.createRefund(order.id, { amount }));
    shop.denyAccess(refunds[1].id);
    const { status, body } = await graphql(shopify, READBACK, { ids: refunds.map((r) => refundGid(r.id)) });
    expect(status).toBe(200);
    expect(body.data.nodes).toEqual([
      { id: refundGid(refunds[0].id), totalRefundedSet: { shopMoney: { amount: "10.0" } } },
      null,
      { id: refundGid(refunds[2].id), totalRefundedSet: { shopMoney: { amount: "30.0" } } },
    ]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ message: "Access denied for refund field.", path: ["nodes", 1], extensions: { code: "ACCESS_DENIED" } });
    expect(body.extensions.cost.requestedQueryCost).toBeGreaterThan(0);
    const single = await graphql(
      shopify,
      `
        query ($id: ID!) {
          refund(id: $id) {
            id
          }
        }
      `,
      { id: refundGid(refunds[1].id) },
    );
    expect(single.body.data).toEqual({ refund: null });
    expect(single.body.errors[0]).toMatchObject({ path: ["refund"], extensions: { code: "ACCESS_DENIED" } });
    shop.allowAccess(refunds[1].id);
    expect((await graphql(shopify, READBACK, { ids: [refundGid(refunds[1].id)] })).body.errors).toBeUndefined();
  });
});

describe("many refunds on one order", () => {
  it("Order.refunds returns up to `first`, or all 70 without it", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "700.00" });
    for (let i = 0; i < 70; i++) shop.createRefund(order.id, { amount: "1.00" });
    const query = (args: string) => `query($id: ID!) { order(id: $id) { refunds${args} { id } } }`;
    const all = await graphql(shopify, query(""), { id: orderGid(order.id) });
    expect(all.body.data.order.refunds).toHaveLength(70);
    expect(new Set(all.body.data.order.refunds.map((r: { id: string }) => r.id)).size).toBe(70);
    const some = await graphql(shopify, query("(first: 5)"), { id: orderGid(order.id) });
    expect(some.body.data.order.refunds).toHaveLength(5);
    // A list selected without `first` is priced as one element, but costs what it returned.
    expect(all.body.extensions.cost).toMatchObject({ requestedQueryCost: 2, actualQueryCost: 71 });
    expect(some.body.extensions.cost).toMatchObject({ requestedQueryCost: 6, actualQueryCost: 6 });
  });
});

describe("a lost answer", () => {
  it("runs the request to the end, then handle() throws: the refund exists", async () => {
    const { shopify, shop, api } = setup();
    const order = shop.createOrder({ amount: "50.00" });
    const id = orderGid(order.id);
    shopify.inject({ kind: "lost_answer" });
    const input = { orderId: id, transactions: [{ amount: "5.00", gateway: "shopify_payments", kind: "REFUND", orderId: id }] };
    await expect(shopify.handle(graphqlRequest(REFUND_CREATE, { input, key: "lost" }))).rejects.toBeInstanceOf(LostAnswerError);
    expect(shop.refunds.size).toBe(1);
    expect(api.stats.refundsCreated).toBe(1);
    // The same key tells the client what it missed.
    const again = await graphql(shopify, REFUND_CREATE, { input, key: "lost" });
    expect(again.body.data.refundCreate.refund.id).toBe(refundGid([...shop.refunds.keys()][0]));
  });

  it("can wait for the next mutation: reads before it are answered", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "50.00" });
    const id = orderGid(order.id);
    shopify.inject({ kind: "lost_answer", operation: "mutation" });
    expect(
      (
        await graphql(
          shopify,
          `
            query ($id: ID!) {
              order(id: $id) {
                name
              }
            }
          `,
          { id },
        )
      ).body.data.order.name,
    ).toBe(order.name);
    expect(shopify.pendingFaults()).toBe(1);
    const input = { orderId: id, transactions: [{ amount: "5.00", gateway: "shopify_payments", kind: "REFUND", orderId: id }] };
    await expect(shopify.handle(graphqlRequest(REFUND_CREATE, { input, key: "k" }))).rejects.toBeInstanceOf(LostAnswerError);
    expect(shopify.pendingFaults()).toBe(0);
    expect(shop.refunds.size).toBe(1);
  });

  it("over HTTP, the client sees the connection reset, and the webhook was sent", async () => {
    const { shopify, shop } = setup();
    const received: string[] = [];
    const app = await import("node:http").then(({ createServer }) =>
      createServer((req, res) => {
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", () => (received.push(body), res.end("ok")));
      }),
    );
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    const origin = await shopify.listen();
    try {
      shopify.webhookTarget = { appUrl: `http://127.0.0.1:${(app.address() as { port: number }).port}` };
      const order = shop.createOrder({ amount: "50.00" });
      const id = orderGid(order.id);
      shopify.inject({ kind: "lost_answer" });
      const request = graphqlRequest(REFUND_CREATE, {
        input: { orderId: id, transactions: [{ amount: "5.00", gateway: "shopify_payments", kind: "REFUND", orderId: id }] },
        key: "lost",
      });
      const error = await fetch(`${origin}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: { ...Object.fromEntries(request.headers), "X-Forwarded-Host": "fake.myshopify.com" },
        body: await request.text(),
      }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(String((error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message)).toBe("ECONNRESET");
      await shopify.flushWebhooks();
      expect(shop.refunds.size).toBe(1);
      expect(received).toHaveLength(1);
      expect(JSON.parse(received[0]).admin_graphql_api_id).toBe(refundGid([...shop.refunds.keys()][0]));
    } finally {
      await shopify.close();
      await new Promise((resolve) => app.close(resolve));
    }
  });
});
