import { describe, expect, it } from "vitest";
import { ShopifyGateway } from "../../../app/shopify/admin/gateway.server";
import { REFUND_READBACK_QUERY } from "../../../app/shopify/admin/documents";
import { readRefunds } from "../../../app/shopify/admin/refund-readback.server";
import { TransportError, type AdminResponse } from "../../../app/shopify/admin/transport";

const cost = { requestedQueryCost: 13, actualQueryCost: 13, throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 900, restoreRate: 100 } };
const refund = (id: number) => ({
  id: `gid://shopify/Refund/${id}`,
  createdAt: "2026-11-30T10:00:00Z",
  order: { id: "gid://shopify/Order/1", name: "#1001" },
  totalRefundedSet: { shopMoney: { amount: "5.0", currencyCode: "USD" }, presentmentMoney: { amount: "5.0", currencyCode: "USD" } },
  transactions: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
});
const gatewayAnswering = (answer: () => Promise<AdminResponse>) =>
  new ShopifyGateway(
    async () => answer,
    () => 0,
    async () => undefined,
  );

describe("the gateway classifies Shopify's answers by their codes", () => {
  it.each<[string, Omit<AdminResponse, "apiVersion">, string]>([
    ["THROTTLED", { errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] }, "throttled"],
    ["a GraphQL error without a path", { errors: [{ message: "Parse error", extensions: { code: "BAD_REQUEST" } }] }, "graphql"],
    [
      "an error on the root field",
      { data: { nodes: null }, errors: [{ message: "Invalid id", path: ["nodes"], extensions: { code: "BAD_REQUEST" } }] },
      "graphql",
    ],
  ])("%s", async (_name, body, kind) => {
    const answer = await gatewayAnswering(async () => ({ ...body, apiVersion: "2026-10" })).request("s", REFUND_READBACK_QUERY, { ids: ["x"] }, 13);
    expect(answer).toMatchObject({ ok: false, kind, apiVersion: "2026-10" });
  });

  it.each([
    [new TransportError("http", "HTTP 503", 503), "unavailable"],
    [new TransportError("network", "socket hang up"), "unavailable"],
    [new TransportError("http", "HTTP 429", 429, 2000), "throttled"],
    [new TransportError("http", "HTTP 401", 401), "rejected"],
    [new TransportError("session", "no session"), "session"],
  ] as const)("%s", async (error, kind) => {
    const answer = await gatewayAnswering(async () => Promise.reject(error)).request("s", REFUND_READBACK_QUERY, { ids: ["x"] }, 13);
    expect(answer).toMatchObject({ ok: false, kind });
  });

  it("waits out THROTTLED when asked to, and sends again: Shopify ran nothing", async () => {
    let calls = 0;
    const answer = await gatewayAnswering(async () =>
      ++calls < 3
        ? { errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }], apiVersion: null }
        : { data: { nodes: [] }, extensions: { cost }, apiVersion: "2026-10" },
    ).request("s", REFUND_READBACK_QUERY, { ids: [] }, 13, { waitThrottled: true });
    expect(answer.ok).toBe(true);
    expect(calls).toBe(3);
  });

  it("never sends an unavailable request twice by itself: it may have run", async () => {
    let calls = 0;
    const answer = await gatewayAnswering(async () => (calls++, Promise.reject(new TransportError("http", "HTTP 502", 502)))).request(
      "s",
      REFUND_READBACK_QUERY,
      { ids: [] },
      13,
      { waitThrottled: true },
    );
    expect(answer.ok).toBe(false);
    expect(calls).toBe(1);
  });
});

describe("a per-node error in a read-back batch", () => {
  it("fails that refund alone; the others are evidence with the version that answered", async () => {
    const gateway = gatewayAnswering(async () => ({
      data: { nodes: [refund(1), null, refund(3)] },
      errors: [{ message: "Access denied for refund field.", path: ["nodes", 1], extensions: { code: "ACCESS_DENIED" } }],
      extensions: { cost },
      apiVersion: "2026-10",
    }));
    gateway.gate("s").observe(cost, 0);
    const outcomes = await readRefunds(gateway, "s", ["gid://shopify/Refund/1", "gid://shopify/Refund/2", "gid://shopify/Refund/3"]);
    expect(outcomes.get("gid://shopify/Refund/1")).toMatchObject({
      ok: true,
      apiVersion: "2026-10",
      body: { data: { refund: { id: "gid://shopify/Refund/1" } } },
    });
    expect(outcomes.get("gid://shopify/Refund/2")).toMatchObject({
      ok: false,
      code: "ACCESS_DENIED",
      error: "GraphQL ACCESS_DENIED: Access denied for refund field.",
    });
    expect(outcomes.get("gid://shopify/Refund/3")).toMatchObject({ ok: true });
  });

  it("reads every transaction of a refund whose first page was not all of them", async () => {
    const first = {
      ...refund(1),
      transactions: {
        nodes: [{ id: "t1", kind: "REFUND", status: "SUCCESS", gateway: "a", errorCode: null, processedAt: null }],
        pageInfo: { hasNextPage: true, endCursor: "c1" },
      },
    };
    const bodies: AdminResponse[] = [
      { data: { nodes: [first] }, extensions: { cost }, apiVersion: "2026-10" },
      {
        data: {
          node: {
            transactions: {
              nodes: [{ id: "t2", kind: "REFUND", status: "FAILURE", gateway: "b", errorCode: "CARD_DECLINED", processedAt: null }],
              pageInfo: { hasNextPage: false, endCursor: "c2" },
            },
          },
        },
        extensions: { cost },
        apiVersion: "2026-10",
      },
    ];
    const gateway = gatewayAnswering(async () => bodies.shift()!);
    gateway.gate("s").observe(cost, 0);
    const outcome = (await readRefunds(gateway, "s", ["gid://shopify/Refund/1"])).get("gid://shopify/Refund/1");
    expect(outcome?.ok && outcome.body.data.refund?.transactions.nodes.map((t) => t.status)).toEqual(["SUCCESS", "FAILURE"]);
  });
});
