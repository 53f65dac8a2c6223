import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseStored, readStored, storedCaptions, storedStrings } from "../../../app/lib/db/stored-json";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../../support/verification";

// Issue 41: JSON the app stored is parsed with the schema of what it writes there, never cast: a
// column of another shape is an error naming the column (never its value), not a value of the wrong type.
let h: VerificationHarness;
let app: {
  toRow: typeof import("../../../app/verdicts/rows.server").toRow;
  loadRefundDetail: typeof import("../../../app/evidence/detail.server").loadRefundDetail;
  REFUND_CREATED: typeof import("../../../app/contracts/registry.server").REFUND_CREATED;
  gateway: import("../../../app/shopify/admin/gateway.server").ShopifyGateway;
};
beforeAll(async () => {
  h = await startVerificationHarness("stored-json.myshopify.com");
  // Imported once the app's environment is set (the Shopify client reads it when loaded).
  const [{ toRow }, { loadRefundDetail }, { REFUND_CREATED }, { ShopifyGateway }, { offlineGraphql }] = await Promise.all([
    import("../../../app/verdicts/rows.server"),
    import("../../../app/evidence/detail.server"),
    import("../../../app/contracts/registry.server"),
    import("../../../app/shopify/admin/gateway.server"),
    import("../../../app/shopify.server"),
  ]);
  app = { toRow, loadRefundDetail, REFUND_CREATED, gateway: new ShopifyGateway(offlineGraphql) };
});
afterAll(async () => h.close());

describe("stored JSON", () => {
  it("is the schema's value, or an error that names the column and never shows the value", () => {
    expect(parseStored(storedStrings, '["duplicate side effect"]', "Operation.classes")).toEqual(["duplicate side effect"]);
    expect(parseStored(storedCaptions, '[{"id":"gid://shopify/Order/1","caption":"#1001"}]', "RefundRecord.refCaptions")).toEqual([
      { id: "gid://shopify/Order/1", caption: "#1001" },
    ]);
    const error = (text: string) => {
      try {
        parseStored(storedStrings, text, "Operation.classes");
      } catch (thrown) {
        return (thrown as Error).message;
      }
      return "no error";
    };
    expect(error('{"card":"4111 1111"}')).toBe("Operation.classes does not hold what the app writes there: (the value): Expected array, received object");
    expect(error('["a", 4111]')).toBe("Operation.classes does not hold what the app writes there: 1: Expected string, received number");
    expect(error("4111 1111")).toBe("Operation.classes is not JSON");
  });

  it("the browser's own notes: what does not parse is nothing", () => {
    const left = z.object({ id: z.string(), at: z.number() });
    expect(readStored(left, '{"id":"a","at":1}')).toEqual({ id: "a", at: 1 });
    for (const text of [null, undefined, "", "null", "7", "{", '{"id":1,"at":1}', '["a"]']) expect(readStored(left, text)).toBeUndefined();
  });

  it("an operation's classes and reasons, and an evaluation's result, of another shape stop the row and the evidence page with that error", async () => {
    const order = h.shop.createOrder({ amount: "40.00" });
    const refund = h.shop.createRefund(order.id, { amount: "10.00", recordedAmount: "11.00" });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    const op = await operationFor(h.db, refundGid(refund.id));
    expect(op.status).toBe("CONTRADICTED");
    const contract = app.REFUND_CREATED.contract;
    expect(app.toRow(contract, op).classes).toEqual(["wrong amount"]);
    expect(() => app.toRow(contract, { ...op, classes: '{"wrong amount":true}' })).toThrow(/^Operation\.classes does not hold what the app writes there/);
    expect(() => app.toRow(contract, { ...op, classes: "wrong amount" })).toThrow(/^Operation\.classes is not JSON$/);

    const detail = () => app.loadRefundDetail(h.db, app.gateway, app.REFUND_CREATED, { shop: h.domain, id: op.id, now: h.clock.now() });
    expect((await detail())?.conditions.length).toBeGreaterThan(0);
    const evaluation = op.evaluations.at(-1)!;
    await h.db.evaluation.update({ where: { id: evaluation.id }, data: { result: '{"explanation":"Wrong amount","conditions":"none"}' } });
    await expect(detail()).rejects.toThrow(new RegExp(`^Evaluation\\.result of ${evaluation.id} does not hold what the app writes there`));
    await h.db.evaluation.update({ where: { id: evaluation.id }, data: { result: evaluation.result } });
    await h.db.operation.update({ where: { id: op.id }, data: { reasons: '["refund_amount_mismatch", 2]' } });
    await expect(detail()).rejects.toThrow(/^Operation\.reasons does not hold what the app writes there: 1: Expected string, received number$/);
  });
});
