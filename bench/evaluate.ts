import { readFileSync } from "node:fs";
import { evaluate } from "../app/contracts/evaluate";
import { loadContractText } from "../app/contracts/load";
import type { Bindings } from "../app/contracts/schema";
import { compareDecimals, parseDecimal, parseInstant } from "../app/contracts/values";
import { row, type BenchRow } from "./support";

/** The same decision as the seed contract, written by hand: what the engine's generality costs. */
function handWritten(b: Bindings): string {
  const readback = (b.observed.refund_readback as { data: { refund: { id: string; createdAt: string; order: { id: string }; totalRefundedSet: { shopMoney: { amount: string } }; transactions: { nodes: { status: string }[] } } } }).data.refund;
  const events = (b.observed.refund_events as { count: number }).count;
  const orderEvents = (b.observed.order_refund_events as { count: number }).count;
  const started = Math.floor(parseInstant(b.operation.created_at)! / 1000);
  const created = Math.floor(parseInstant(readback.createdAt)! / 1000);
  if (readback.order.id !== b.input.order_id) return "CONTRADICTED";
  if (compareDecimals(parseDecimal(readback.totalRefundedSet.shopMoney.amount)!, parseDecimal(b.input.amount)!) !== 0) return "CONTRADICTED";
  if (created < started) return "CONTRADICTED";
  if (orderEvents > 1) return "CONTRADICTED";
  if (["FAILURE", "ERROR"].includes(readback.transactions.nodes[0]?.status)) return "FAILED";
  const id = (b.action.result as { refundCreate: { refund: { id: string } } }).refundCreate.refund.id;
  if (created >= started && readback.id === id && events >= 1) return "VERIFIED";
  return "PENDING";
}

function perSecond(fn: () => void, minMs: number): number {
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    for (let i = 0; i < 1000; i++) fn();
    runs += 1000;
  }
  return runs / ((performance.now() - start) / 1000);
}

/** 4. Evaluations per second of the seed contract on one core, against the hand-written check. */
export function benchEvaluate(): BenchRow[] {
  const seed = loadContractText(readFileSync("contracts/shopify.refund.created.json", "utf8"));
  const transaction = { status: "SUCCESS", kind: "REFUND" };
  const bindings: Bindings = {
    input: { order_id: "gid://shopify/Order/820982911946154508", amount: "25.00", currency: "USD" },
    action: { result: { refundCreate: { refund: { id: "gid://shopify/Refund/890088186047892319" } } } },
    operation: { created_at: "2026-11-29T10:00:05.250Z" },
    observed: {
      refund_readback: { data: { refund: { id: "gid://shopify/Refund/890088186047892319", createdAt: "2026-11-29T10:00:06Z", order: { id: "gid://shopify/Order/820982911946154508" }, totalRefundedSet: { shopMoney: { amount: "25.0", currencyCode: "USD" } }, transactions: { nodes: [transaction] } } } },
      refund_events: { count: 1, events: [], latest: null, earliest: null, types: ["REFUNDS_CREATE"], duplicates_dropped: 0 },
      order_refund_events: { count: 1, events: [], latest: null, earliest: null, types: ["REFUNDS_CREATE"], duplicates_dropped: 0 },
    },
    now: "2026-11-29T10:01:00Z",
  };
  if (evaluate(seed, bindings).verdict !== "VERIFIED" || handWritten(bindings) !== "VERIFIED") throw new Error("evaluate bench: the two do not agree");
  perSecond(() => evaluate(seed, bindings), 300);
  const engine = perSecond(() => evaluate(seed, bindings), 2000);
  const direct = perSecond(() => handWritten(bindings), 2000);
  return [row("4. contract evaluation", "evaluations/s, one core", engine, direct, "eval/s", "hand-written check of the same conditions", "VERIFIED bindings, all 8 conditions evaluated")];
}
