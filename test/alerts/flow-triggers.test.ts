import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import {
  ALL_FLOW_TRIGGERS,
  APPROVAL_FLOW_TRIGGER,
  DISPUTED_ORDER_FLOW_TRIGGER,
  approvalFlowPayload,
  FLOW_TRIGGERS,
  MONEY_FLOW_TRIGGERS,
  disputedOrderFlowPayload,
  flowPayload,
  flowTriggerByDefinitionId,
} from "../../app/alerts/flow-triggers";
import { FakeFlow, loadFlowTriggers } from "../../fake-shopify/flow";

const refund = {
  orderName: "#1340",
  orderId: "5555",
  verdict: "FAILED",
  reasons: ["The refund record exists, but its transaction failed at the gateway."],
  classes: [],
  amount: "19.99",
  currency: "EUR",
  refundGid: "gid://shopify/Refund/9007199254740995",
  orderGid: "gid://shopify/Order/5555",
  origin: "webhook",
  evidenceUrl: "https://admin.shopify.com/store/s/apps/k/refunds/op",
};

const waitingRefund = {
  orderGid: "gid://shopify/Order/9007199254740993",
  orderName: "#1340",
  amount: "180.00",
  currency: "EUR",
  askedBy: "Sam Lee",
  limits: "€180.00 is over the shop's limit of €100.00 per refund.",
  expiresAt: new Date("2026-12-04T15:00:00Z"),
  requestUrl: "https://admin.shopify.com/store/s/apps/k/approvals/req",
};

describe("the Flow trigger extensions", () => {
  it("are the app's triggers: handles of at most 30 characters, names in 'object + past-tense verb' style, API 2026-10", () => {
    const deployed = loadFlowTriggers();
    expect(deployed.map((t) => [t.handle, t.name]).sort()).toEqual(ALL_FLOW_TRIGGERS.map((t) => [t.handle, t.name]).sort());
    for (const trigger of ALL_FLOW_TRIGGERS) {
      expect(trigger.handle.length).toBeLessThanOrEqual(30);
      expect(trigger.handle).toMatch(/^[a-z0-9-]+$/);
      expect(trigger.name).toMatch(/^Refund [a-z ]+$/);
    }
    for (const folder of [
      "flow-refund-contradicted",
      "flow-refund-failed",
      "flow-refund-unverifiable",
      "flow-refund-payout-failed",
      "flow-refund-on-disputed-order",
      "flow-refund-waiting-for-approval",
    ]) {
      expect(readFileSync(`extensions/${folder}/shopify.extension.toml`, "utf8")).toMatch(/^api_version = "2026-10"$/m);
    }
  });

  it("declare exactly the fields the app sends, and Flow (the fake) accepts the payload", () => {
    const flow = new FakeFlow();
    for (const trigger of FLOW_TRIGGERS) {
      expect(flow.receive("s.myshopify.com", trigger.handle, flowPayload({ ...refund, verdict: trigger.verdict }), new Date())).toEqual([]);
    }
    // A money trigger's payload names the payout too.
    const payout = { id: "gid://shopify/ShopifyPaymentsPayout/9007199254740993", status: "FAILED" };
    for (const trigger of MONEY_FLOW_TRIGGERS) {
      expect(flow.receive("s.myshopify.com", trigger.handle, flowPayload({ ...refund, verdict: "CONTRADICTED", payout }), new Date())).toEqual([]);
      expect(flow.receive("s.myshopify.com", trigger.handle, flowPayload({ ...refund, verdict: "CONTRADICTED" }), new Date())).toEqual([
        { field: ["payload", "payout id"], message: "Missing required field: payout id" },
        { field: ["payload", "payout status"], message: "Missing required field: payout status" },
      ]);
    }
    // "Refund on a disputed order" names the money at risk and the dispute, not a verdict; what the app could not read is "".
    const disputed = {
      ...refund,
      reasons: ["This order has an open chargeback: if it is lost, the customer is paid twice. Answer it with this refund's proof."],
      classes: ["open chargeback"],
      atRisk: { amount: "19.99", currency: "EUR" },
      dispute: { id: "gid://shopify/ShopifyPaymentsDispute/9007199254740997", status: "NEEDS_RESPONSE", reason: null, evidenceDueBy: null },
    };
    expect(flow.receive("s.myshopify.com", DISPUTED_ORDER_FLOW_TRIGGER.handle, disputedOrderFlowPayload(disputed), new Date())).toEqual([]);
    expect(flow.receive("s.myshopify.com", DISPUTED_ORDER_FLOW_TRIGGER.handle, flowPayload(refund), new Date())).toContainEqual({
      field: ["payload", "dispute status"],
      message: "Missing required field: dispute status",
    });
    // "Refund waiting for approval" names the refund asked for, who asked, the limits, the expiry and the request's page.
    const waiting = approvalFlowPayload(waitingRefund);
    expect(flow.receive("s.myshopify.com", APPROVAL_FLOW_TRIGGER.handle, waiting, new Date())).toEqual([]);
    expect(flow.receive("s.myshopify.com", APPROVAL_FLOW_TRIGGER.handle, flowPayload(refund), new Date())).toContainEqual({
      field: ["payload", "asked by"],
      message: "Missing required field: asked by",
    });
    expect(flow.receive("s.myshopify.com", "refund-failed-at-gateway", { ...flowPayload(refund), extra: 1 }, new Date())).toEqual([
      { field: ["payload", "extra"], message: "Unknown field: extra" },
    ]);
    expect(flow.receive("s.myshopify.com", "no-such-trigger", {}, new Date())).toEqual([
      { field: ["handle"], message: "Trigger with handle no-such-trigger not found" },
    ]);
  });

  it("the payload keeps money a decimal string with its currency, and an id above 2^53 exact", () => {
    expect(flowPayload(refund)).toMatchObject({
      order_id: 5555,
      "order name": "#1340",
      amount: "19.99",
      "currency code": "EUR",
      verdict: "Failed",
      "refund id": "gid://shopify/Refund/9007199254740995",
    });
    expect(flowPayload({ ...refund, orderGid: "gid://shopify/Order/9007199254740993" }).order_id).toBe("9007199254740993");
    const disputed = disputedOrderFlowPayload({
      ...refund,
      reasons: [],
      classes: ["paid twice"],
      atRisk: { amount: "100.00", currency: "EUR" },
      dispute: { id: "gid://shopify/ShopifyPaymentsDispute/1", status: "LOST", reason: "CREDIT_NOT_PROCESSED", evidenceDueBy: "2026-05-08T16:00:00Z" },
    });
    expect(disputed).toMatchObject({
      amount: "19.99",
      "currency code": "EUR",
      "amount at risk": "100.00",
      "at risk currency code": "EUR",
      "dispute status": "LOST",
      "dispute reason": "CREDIT_NOT_PROCESSED",
      "evidence due by": "2026-05-08T16:00:00.000Z",
    });
  });

  it("'Refund waiting for approval' keeps the amount a decimal string with its currency, the expiry an instant in UTC, and an order id above 2^53 exact", () => {
    expect(approvalFlowPayload(waitingRefund)).toEqual({
      order_id: "9007199254740993",
      "order name": "#1340",
      amount: "180.00",
      "currency code": "EUR",
      "asked by": "Sam Lee",
      limits: "€180.00 is over the shop's limit of €100.00 per refund.",
      "expires at": "2026-12-04T15:00:00.000Z",
      "request url": "https://admin.shopify.com/store/s/apps/k/approvals/req",
    });
    expect(flowTriggerByDefinitionId("Refund waiting for approval")?.handle).toBe("refund-waiting-for-approval");
  });

  it("the lifecycle callback extension points at the app's route; Flow may name a trigger by handle or title", () => {
    const config = parse(readFileSync("extensions/flow-trigger-lifecycle/shopify.extension.toml", "utf8")) as { extensions: { type: string; url: string }[] };
    expect(config.extensions[0]).toMatchObject({ type: "flow_trigger_lifecycle_callback", url: "/flow/trigger-lifecycle" });
    expect(readFileSync("app/routes/flow.trigger-lifecycle.tsx", "utf8")).toContain("handleTriggerLifecycle");
    expect(flowTriggerByDefinitionId("Refund unverifiable")?.handle).toBe("refund-unverifiable");
    expect(flowTriggerByDefinitionId("refund-unverifiable")?.handle).toBe("refund-unverifiable");
    expect(flowTriggerByDefinitionId("Refund created")).toBeUndefined();
    expect(flowTriggerByDefinitionId("refund-payout-failed")?.name).toBe("Refund payout failed");
    expect(flowTriggerByDefinitionId("Refund on a disputed order")?.handle).toBe("refund-on-disputed-order");
  });
});
