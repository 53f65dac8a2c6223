import { readFileSync } from "node:fs";
import { evaluate } from "../app/contracts/evaluate";
import { loadContractText } from "../app/contracts/load";
import type { Bindings } from "../app/contracts/schema";
import { compareDecimalValues, parseInstant } from "../app/contracts/values";
import { perSecond, row, type BenchRow } from "./support";

interface Readback {
  data: {
    refund: {
      id: string;
      createdAt: string;
      order: { id: string };
      totalRefundedSet: { shopMoney: { amount: string } };
      transactions: { nodes: { status: string }[] };
    };
  };
}

/** The same decision as the seed contract, written by hand: what the engine's generality costs. */
function handWritten(b: Bindings, timeoutMs: number): string {
  const started = parseInstant(b.operation.created_at)!;
  const refund = (b.observed.refund_readback as Readback | undefined)?.data.refund;
  const events = (b.observed.refund_events as { count: number } | undefined)?.count;
  const orderEvents = (b.observed.order_refund_events as { count: number } | undefined)?.count;
  const created = refund ? Math.floor(parseInstant(refund.createdAt)! / 1000) : undefined;
  if (refund && created !== undefined) {
    if (refund.order.id !== b.input.order_id) return "CONTRADICTED";
    if (compareDecimalValues(refund.totalRefundedSet.shopMoney.amount, b.input.amount) !== 0) return "CONTRADICTED";
    if (created < Math.floor(started / 1000)) return "CONTRADICTED";
  }
  if (orderEvents !== undefined && orderEvents > 1) return "CONTRADICTED";
  if (refund && ["FAILURE", "ERROR"].includes(refund.transactions.nodes[0]?.status)) return "FAILED";
  const id = (b.action.result as { refundCreate: { refund: { id: string } } }).refundCreate.refund.id;
  if (refund && created! >= Math.floor(started / 1000) && refund.id === id && events !== undefined && events >= 1) return "VERIFIED";
  return parseInstant(b.now)! >= started + timeoutMs ? "UNVERIFIABLE" : "PENDING";
}

const ORDER = "gid://shopify/Order/820982911946154508";
const REFUND = "gid://shopify/Refund/890088186047892319";

/** Realistic 2025-07 bindings: a read-back body and two webhook channels, changed per verdict. */
function bindingsFor(change: { amount?: string; status?: string; orderEvents?: number; readback?: boolean; now?: string } = {}): Bindings {
  const transaction = { status: change.status ?? "SUCCESS", kind: "REFUND" };
  const events = (count: number) => ({ count, events: [], latest: null, earliest: null, types: ["REFUNDS_CREATE"], duplicates_dropped: 0 });
  const readback = {
    data: {
      refund: {
        id: REFUND,
        createdAt: "2026-11-29T10:00:06Z",
        order: { id: ORDER },
        totalRefundedSet: { shopMoney: { amount: change.amount ?? "25.0", currencyCode: "USD" } },
        transactions: { nodes: [transaction] },
      },
    },
  };
  return {
    input: { order_id: ORDER, amount: "25.00", currency: "USD" },
    action: { result: { refundCreate: { refund: { id: REFUND } } } },
    operation: { created_at: "2026-11-29T10:00:05.250Z" },
    observed: change.readback === false ? {} : { refund_readback: readback, refund_events: events(1), order_refund_events: events(change.orderEvents ?? 1) },
    now: change.now ?? "2026-11-29T10:01:00Z",
  };
}

/** 4. Evaluations per second of the seed contract on one core, against the hand-written check. */
export function benchEvaluate(): BenchRow[] {
  const seed = loadContractText(readFileSync("contracts/shopify.refund.created@1.0.0.json", "utf8"));
  const timeout = seed.contract.timing.timeout_ms;
  const verified = bindingsFor();
  const mixed: [string, Bindings][] = [
    ["VERIFIED", verified],
    ["CONTRADICTED", bindingsFor({ amount: "24.99" })],
    ["CONTRADICTED", bindingsFor({ orderEvents: 2 })],
    ["FAILED", bindingsFor({ status: "FAILURE" })],
    ["PENDING", bindingsFor({ readback: false })],
    ["UNVERIFIABLE", bindingsFor({ readback: false, now: "2026-12-07T10:00:06Z" })],
  ];
  for (const [verdict, bindings] of mixed) {
    if (evaluate(seed, bindings).verdict !== verdict || handWritten(bindings, timeout) !== verdict)
      throw new Error(`evaluate bench: the two do not agree on ${verdict}`);
  }
  perSecond(() => evaluate(seed, verified), 300);
  const engine = perSecond(() => evaluate(seed, verified), 2000);
  const direct = perSecond(() => handWritten(verified, timeout), 2000);
  const engineMixed = perSecond((i) => evaluate(seed, mixed[i % mixed.length][1]), 2000);
  const directMixed = perSecond((i) => handWritten(mixed[i % mixed.length][1], timeout), 2000);
  const baseline = "hand-written check of the same conditions";
  return [
    row("4. contract evaluation", "evaluations/s, one core", engine, direct, "eval/s", baseline, "VERIFIED bindings, all 8 conditions evaluated"),
    row(
      "4. contract evaluation",
      "evaluations/s, one core, mixed verdicts",
      engineMixed,
      directMixed,
      "eval/s",
      baseline,
      "mixed: VERIFIED, CONTRADICTED twice (amount, duplicate), FAILED, PENDING and UNVERIFIABLE (no read-back yet), in turn",
    ),
  ];
}
