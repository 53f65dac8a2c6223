import { describe, expect, it } from "vitest";
import { resolvePath } from "../../app/contracts/paths";
import { bindings, readback } from "./fixtures/bindings";

describe("paths", () => {
  it("reads fields and plain array elements", () => {
    const b = bindings({ list: { items: ["a", "b"] } });
    expect(resolvePath(b, "$input.amount")).toEqual({ found: true, value: "25.00" });
    expect(resolvePath(b, "$observed.list.items[1]")).toEqual({ found: true, value: "b" });
  });

  it("indexes a connection's nodes, whether it has nodes or edges", () => {
    for (const edges of [false, true]) {
      const b = bindings({ refund_readback: readback({ status: "FAILURE", edges }) });
      expect(resolvePath(b, "$observed.refund_readback.data.refund.transactions[0].status")).toEqual({ found: true, value: "FAILURE" });
    }
  });

  it("is unknown (not found) for a missing channel, field, index or a null", () => {
    const b = bindings({ refund_readback: readback({ createdAt: null }) });
    expect(resolvePath(b, "$observed.refund_events.count").found).toBe(false);
    expect(resolvePath(b, "$observed.refund_readback.data.refund.nothing").found).toBe(false);
    expect(resolvePath(b, "$observed.refund_readback.data.refund.transactions[3].status").found).toBe(false);
    expect(resolvePath(b, "$observed.refund_readback.data.refund.createdAt").found).toBe(false);
    expect(resolvePath(bindings({ refund_readback: { data: { refund: null } } }), "$observed.refund_readback.data.refund.id").found).toBe(false);
  });

  it("[*] reads the path in every element of a list or a connection, null where it does not resolve", () => {
    const transactions = [{ status: "SUCCESS" }, { status: null }, {}];
    const path = "$observed.r.transactions[*].status";
    const expected = { found: true, value: ["SUCCESS", null, null] };
    expect(resolvePath(bindings({ r: { transactions } }), path)).toEqual(expected);
    expect(resolvePath(bindings({ r: { transactions: { nodes: transactions } } }), path)).toEqual(expected);
    expect(resolvePath(bindings({ r: { transactions: { edges: transactions.map((node) => ({ node })) } } }), path)).toEqual(expected);
    expect(resolvePath(bindings({ r: { transactions: { nodes: [] } } }), path)).toEqual({ found: true, value: [] });
    for (const absent of [{}, { transactions: null }, { transactions: "SUCCESS" }, { transactions: { pageInfo: {} } }]) {
      expect(resolvePath(bindings({ r: absent }), path).found).toBe(false);
    }
    expect(resolvePath(bindings({ r: { items: ["a", "b"] } }), "$observed.r.items[*]")).toEqual({ found: true, value: ["a", "b"] });
  });

  it("does not read inherited properties", () => {
    expect(resolvePath(bindings({}), "$input.constructor").found).toBe(false);
  });
});
