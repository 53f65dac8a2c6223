import { parseJsonKeepingLongIntegers } from "../../app/webhooks/lossless-json";
import { describe, expect, it } from "vitest";
import { APP_TITLE } from "../../fake-shopify/server";
import { refundWebhookBody } from "../../fake-shopify/webhooks";
import { TEST_APP } from "../support/credentials";
import { graphql, orderGid, REFUND_CREATE, refundGid, setup } from "./support";

// Decision 031: what Shopify's 2026-10 schema says about where a refund was made and by whom, as
// the fake answers it. A refund's agreement names the app that made it (read_orders); a
// transaction names the POS device that processed it (read_orders); whoever made it is a
// StaffMember, whose type needs read_users (and a Plus or Advanced store, or a finance app).

const AGREEMENTS = `query($id: ID!) {
  order(id: $id) { agreements(first: 5) { nodes { __typename ... on RefundAgreement { refund { id } app { title apiKey } } } } }
}`;

describe("who made a refund, in the fake's Admin API", () => {
  it("Refund.staffMember, RefundAgreement.user and OrderTransaction.user answer ACCESS_DENIED without read_users, at their path, the rest of the answer intact", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "50.00" });
    const refund = shop.createRefund(order.id, { amount: "10.00", staffUserId: "42", pos: true });
    const { body } = await graphql(
      shopify,
      `
        query ($ids: [ID!]!) {
          nodes(ids: $ids) {
            ... on Refund {
              id
              staffMember {
                name
              }
              transactions(first: 1) {
                nodes {
                  user {
                    name
                  }
                }
              }
            }
          }
        }
      `,
      { ids: [refundGid(refund.id)] },
    );
    expect(body.data.nodes[0]).toEqual({ id: refundGid(refund.id), staffMember: null, transactions: { nodes: [{ user: null }] } });
    expect(body.errors.map((e: { path: unknown[]; extensions: { code: string; requiredAccess: string } }) => [e.path, e.extensions.code])).toEqual([
      [["nodes", 0, "staffMember"], "ACCESS_DENIED"],
      [["nodes", 0, "transactions", "nodes", 0, "user"], "ACCESS_DENIED"],
    ]);
    expect(body.errors[0].extensions.requiredAccess).toMatch(/^`read_users` access scope\. Also: .*Shopify Plus or Advanced store/);
    const agreement = await graphql(
      shopify,
      `
        query ($id: ID!) {
          order(id: $id) {
            agreements(first: 1) {
              nodes {
                user {
                  name
                }
              }
            }
          }
        }
      `,
      {
        id: orderGid(order.id),
      },
    );
    expect(agreement.body.errors[0].extensions.code).toBe("ACCESS_DENIED");
  });

  it("with read_users, the staff member is named", async () => {
    const { shopify, shop } = setup();
    shop.grantedScopes.add("read_users");
    const order = shop.createOrder({ amount: "50.00" });
    const refund = shop.createRefund(order.id, { amount: "10.00", staffUserId: "42" });
    const { body } = await graphql(
      shopify,
      `
        query ($id: ID!) {
          refund(id: $id) {
            staffMember {
              name
              isShopOwner
            }
          }
        }
      `,
      { id: refundGid(refund.id) },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.refund.staffMember).toEqual({ name: "Dana Whitfield", isShopOwner: true });
  });

  it("RefundAgreement.app names the app that made the refund: none for one made in the admin, the app calling refundCreate, another app by name", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "90.00" });
    const inAdmin = shop.createRefund(order.id, { amount: "10.00", staffUserId: "42" });
    const byReturnsPro = shop.createRefund(order.id, { amount: "11.00", app: "Returns Pro" });
    const created = await graphql(shopify, REFUND_CREATE, {
      key: "made-by-this-app",
      input: { orderId: orderGid(order.id), transactions: [{ amount: "12.00", gateway: "shopify_payments", kind: "REFUND", orderId: orderGid(order.id) }] },
    });
    const byThisApp = created.body.data.refundCreate.refund.id;
    const { body } = await graphql(shopify, AGREEMENTS, { id: orderGid(order.id) });
    expect(body.errors).toBeUndefined();
    expect(body.data.order.agreements.nodes).toEqual([
      { __typename: "RefundAgreement", refund: { id: refundGid(inAdmin.id) }, app: null },
      { __typename: "RefundAgreement", refund: { id: refundGid(byReturnsPro.id) }, app: { title: "Returns Pro", apiKey: shop.app("Returns Pro").apiKey } },
      { __typename: "RefundAgreement", refund: { id: byThisApp }, app: { title: APP_TITLE, apiKey: TEST_APP.apiKey } },
    ]);
  });

  it("a POS refund's transactions name their device (read_orders), its agreement the Point of Sale app, and its payload device_id, user_id and source_name pos", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "50.00" });
    const refund = shop.createRefund(order.id, { amount: "10.00", staffUserId: "42", pos: true });
    const { body } = await graphql(
      shopify,
      `
        query ($id: ID!) {
          refund(id: $id) {
            transactions(first: 1) {
              nodes {
                device {
                  id
                }
              }
            }
            order {
              agreements(last: 1) {
                nodes {
                  ... on RefundAgreement {
                    app {
                      title
                    }
                  }
                }
              }
            }
          }
        }
      `,
      { id: refundGid(refund.id) },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.refund.transactions.nodes[0].device.id).toMatch(/^gid:\/\/shopify\/PointOfSaleDevice\/\d+$/);
    expect(body.data.refund.order.agreements.nodes).toEqual([{ app: { title: "Point of Sale" } }]);
    // Read as the app reads a delivery: a device id past 2^53 keeps its digits (JSON.parse rounded it, and the comparison failed when its id was odd).
    const payload = parseJsonKeepingLongIntegers(refundWebhookBody(shop, refund)) as { user_id: unknown; transactions: Record<string, unknown>[] };
    expect(payload.user_id).toBe(42);
    expect(payload.transactions[0]).toMatchObject({ user_id: 42, source_name: "pos" });
    expect(String(payload.transactions[0].device_id)).toBe(body.data.refund.transactions.nodes[0].device.id.split("/").pop());

    const online = shop.createRefund(order.id, { amount: "5.00" });
    expect(JSON.parse(refundWebhookBody(shop, online)).transactions[0]).toMatchObject({ device_id: null, user_id: null, source_name: "web" });
  });
});
