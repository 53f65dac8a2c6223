import type { z } from "zod";
import type { AdminFailure, AdminOperation, OperationVariables, ShopifyGateway } from "./gateway.server";
import { batchSize } from "./refund-readback.server";

export type Failed = Pick<AdminFailure, "ok" | "kind" | "code" | "message" | "retryAfterMs">;

/** What Shopify answered for one id: the node as the schema parses it, `null` (Shopify shows no such node to this shop), or a failed read. */
export type NodeRead<T> = { ok: true; node: T | null } | Failed;

/** An error Shopify put in a field's place (ACCESS_DENIED…): a failed read of that field alone. */
export const fieldFailure = (code: string, message: string): Failed => ({
  ok: false,
  kind: "graphql",
  code,
  message: `GraphQL ${code}: ${message}`,
  retryAfterMs: 60_000,
});
/** An answer that is not what the schema says: never evidence, read again soon. */
export const malformed = (message: string): Failed => ({ ok: false, kind: "malformed", code: "NO_DATA", message, retryAfterMs: 5_000 });

/** One kind of node read by id: its `nodes(ids:)` document, what each node costs, and the schema each is parsed by at the door. */
export interface NodeKind<Q extends AdminOperation, T> {
  query: Q;
  perNodeCost: number;
  schema: z.ZodType<T, z.ZodTypeDef, unknown>;
}

/**
 * Reads nodes by id with a `nodes(ids:)` query, as many a request as keep its cost at or under
 * 1,000 points, through the throttle gate. Each node is parsed at the door by `schema`: Shopify's
 * null is "no such node for this shop", an error in a node's place (ACCESS_DENIED…) or a node that
 * does not parse is a failed read of that id alone, a failed request fails its ids. No failure is
 * evidence: callers tell `null` from a failure.
 */
export async function readNodes<Q extends AdminOperation, T>(
  gateway: ShopifyGateway,
  shop: string,
  kind: NodeKind<Q, T>,
  gids: string[],
): Promise<Map<string, NodeRead<T>>> {
  const { query, perNodeCost, schema } = kind;
  const read = new Map<string, NodeRead<T>>();
  const ids = [...new Set(gids)];
  for (let start = 0; start < ids.length;) {
    // A process that has not heard from this shop yet (just started, or the first to ask) learns
    // the bucket with one node before it sends a full batch into it, as the read-back does.
    const batch = ids.slice(start, start + (gateway.gate(shop).unknown ? 1 : batchSize(perNodeCost)));
    start += batch.length;
    const answer = await gateway.request(shop, query, { ids: batch } as OperationVariables<Q>, batch.length * perNodeCost, { waitThrottled: true });
    if (!answer.ok) {
      for (const id of answer.kind === "deferred" ? ids.slice(start - batch.length) : batch) read.set(id, answer);
      if (answer.kind === "deferred") return read;
      continue;
    }
    const nodes = (answer.data as { nodes?: unknown }).nodes;
    if (!Array.isArray(nodes) || nodes.length !== batch.length) {
      for (const id of batch) read.set(id, malformed("malformed response: no nodes list of the requested length"));
      continue;
    }
    const errors = new Map(answer.fieldErrors.filter((e) => e.path?.[0] === "nodes" && typeof e.path[1] === "number").map((e) => [e.path![1] as number, e]));
    for (const [index, id] of batch.entries()) {
      const error = errors.get(index);
      if (error) {
        read.set(id, fieldFailure(error.extensions?.code ?? "GRAPHQL_ERROR", error.message));
        continue;
      }
      if (nodes[index] === null) {
        read.set(id, { ok: true, node: null });
        continue;
      }
      const parsed = schema.safeParse(nodes[index]);
      read.set(id, parsed.success ? { ok: true, node: parsed.data } : malformed(`malformed response: ${id} is not in Shopify's answer as read`));
    }
  }
  return read;
}
