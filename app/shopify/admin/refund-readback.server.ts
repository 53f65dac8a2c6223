import type { ShopifyGateway, AdminFailure } from "./gateway.server";
import { QUERY_COSTS, REFUND_READBACK_QUERY, REFUND_TRANSACTIONS_QUERY } from "./documents";
import type { QueryCost } from "./transport";
import type { RefundReadbackQuery } from "./types/admin.generated";

export const MAX_IDS_PER_REQUEST = 250;
export const MAX_QUERY_COST = 1000;

type ReadbackNode = RefundReadbackQuery["nodes"][number];
export type ReadRefund = Extract<NonNullable<ReadbackNode>, { id: string }>;

/**
 * What the contract's paths read: the body a `refund(id:)` query would have returned, and, for a
 * refund Shopify answered without, whether it shows the refund's order (null: no such order in
 * this shop; absent: not asked, or not answered).
 */
export interface ReadbackBody {
  data: { refund: ReadRefund | null; order?: { id: string } | null };
  extensions?: { cost: QueryCost };
}

export type ReadbackOutcome =
  | { ok: true; body: ReadbackBody; apiVersion: string | null }
  /** Not sent: the shop's bucket needs this long to refill. Not a failed read. */
  | { ok: false; deferred: true; error: string; code: string; retryAfterMs: number; apiVersion: string | null }
  | { ok: false; deferred?: false; error: string; code: string; retryAfterMs: number; apiVersion: string | null };

export function batchSize(costPerRefund: number): number {
  return Math.max(1, Math.min(MAX_IDS_PER_REQUEST, Math.floor(MAX_QUERY_COST / Math.max(1, costPerRefund))));
}

const failed = (answer: AdminFailure): ReadbackOutcome =>
  ({
    ok: false,
    deferred: answer.kind === "deferred" ? true : undefined,
    error: answer.message,
    code: answer.code,
    retryAfterMs: answer.retryAfterMs,
    apiVersion: answer.apiVersion,
  }) as ReadbackOutcome;

/**
 * Reads the rest of a refund's transactions when the first page did not hold them all (a refund
 * paid back over many gateways). Returns false when a page could not be read.
 */
async function completeTransactions(gateway: ShopifyGateway, shop: string, refund: ReadRefund): Promise<AdminFailure | null> {
  let page = refund.transactions.pageInfo;
  while (page.hasNextPage) {
    const answer = await gateway.request(shop, REFUND_TRANSACTIONS_QUERY, { id: refund.id, after: page.endCursor }, QUERY_COSTS.refundTransactions, {
      waitThrottled: true,
    });
    if (!answer.ok) return answer;
    const more = answer.data.node && "transactions" in answer.data.node ? answer.data.node.transactions : null;
    if (!more)
      return {
        ok: false,
        kind: "malformed",
        code: "NO_DATA",
        message: "malformed response: the refund's transactions are missing",
        retryAfterMs: 5_000,
        apiVersion: answer.apiVersion,
      };
    refund.transactions.nodes.push(...more.nodes);
    page = more.pageInfo;
  }
  refund.transactions.pageInfo = page;
  return null;
}

/**
 * The `http` verifier of refund_readback: many refunds of one shop per `nodes(ids:)` request,
 * batches sized so the requested cost stays at or under 1,000. A refund Shopify answers with a
 * per-node error (ACCESS_DENIED…) is a failed read for that refund alone; any other error fails
 * the batch. Failures are never evidence.
 */
export async function readRefunds(gateway: ShopifyGateway, shop: string, refundGids: string[]): Promise<Map<string, ReadbackOutcome>> {
  const outcomes = new Map<string, ReadbackOutcome>();
  let remaining = [...new Set(refundGids)];
  const costKey = `${shop} readback`;
  while (remaining.length > 0) {
    const perRefund = gateway.learnedCost.get(costKey) ?? QUERY_COSTS.refundReadbackPerRefund;
    // A worker that has not heard from this shop yet (just started, or restarted after a crash)
    // learns the bucket with one refund before it sends a full batch into it.
    const batch = remaining.slice(0, gateway.gate(shop).unknown ? 1 : batchSize(perRefund));
    remaining = remaining.slice(batch.length);
    const answer = await gateway.request(shop, REFUND_READBACK_QUERY, { ids: batch }, batch.length * perRefund);
    if (!answer.ok) {
      for (const id of answer.kind === "deferred" ? [...batch, ...remaining] : batch) outcomes.set(id, failed(answer));
      if (answer.kind === "deferred") return outcomes;
      continue;
    }
    const { cost, apiVersion } = answer;
    if (cost?.requestedQueryCost) gateway.learnedCost.set(costKey, Math.ceil(cost.requestedQueryCost / batch.length));
    const nodes = answer.data.nodes;
    if (!Array.isArray(nodes) || nodes.length !== batch.length) {
      for (const id of batch)
        outcomes.set(id, { ok: false, error: "malformed response: no nodes list of the requested length", code: "NO_DATA", retryAfterMs: 5_000, apiVersion });
      continue;
    }
    const nodeErrors = new Map(
      answer.fieldErrors.filter((e) => e.path?.[0] === "nodes" && typeof e.path[1] === "number").map((e) => [e.path![1] as number, e]),
    );
    for (const [index, id] of batch.entries()) {
      const nodeError = nodeErrors.get(index);
      if (nodeError) {
        const code = nodeError.extensions?.code ?? "GRAPHQL_ERROR";
        outcomes.set(id, { ok: false, error: `GraphQL ${code}: ${nodeError.message}`, code, retryAfterMs: 60_000, apiVersion });
        continue;
      }
      const node = nodes[index];
      const refund = node && "id" in node ? (node as ReadRefund) : null;
      const incomplete = refund ? await completeTransactions(gateway, shop, refund) : null;
      outcomes.set(id, incomplete ? failed(incomplete) : { ok: true, body: { data: { refund }, ...(cost ? { extensions: { cost } } : {}) }, apiVersion });
    }
  }
  return outcomes;
}
