import { GraphqlQueryError, HttpResponseError, HttpThrottlingError } from "@shopify/shopify-api";
import { batchSize, INITIAL_COST_PER_REFUND, REFUND_READBACK_QUERY, refundBody, type QueryCost } from "./readback-query";
import { ThrottleGate } from "./throttle";

/** Runs one GraphQL request for a shop and returns the parsed body; throws Shopify's library errors. */
export interface GraphqlBody {
  data?: unknown;
  extensions?: { cost?: QueryCost };
}
export type ShopGraphql = (query: string, variables: Record<string, unknown>) => Promise<GraphqlBody>;

export type ReadbackOutcome =
  | { ok: true; body: ReturnType<typeof refundBody> }
  /** Not sent: the shop's bucket needs this long to refill. Not a failed read. */
  | { ok: false; deferred: true; error: string; retryAfterMs: number }
  | { ok: false; deferred?: false; error: string; retryAfterMs: number };

export interface ReadbackStats {
  requests: number;
  requestedCost: number;
  throttled: number;
  errors: number;
}

/** Waits this long at most before a request; a longer wait is handed back as a reschedule. */
const MAX_INLINE_WAIT_MS = 5_000;

function describeFailure(error: unknown): { error: string; retryAfterMs?: number; cost?: QueryCost } {
  if (error instanceof GraphqlQueryError) {
    const body = error.body as { errors?: { graphQLErrors?: { message?: string; extensions?: { code?: string } }[] }; extensions?: { cost?: QueryCost } } | undefined;
    const first = body?.errors?.graphQLErrors?.[0];
    return { error: `GraphQL ${first?.extensions?.code ?? "error"}: ${first?.message ?? error.message}`, cost: body?.extensions?.cost };
  }
  if (error instanceof HttpThrottlingError) {
    const retryAfter = (error.response as { retryAfter?: number }).retryAfter;
    return { error: "HTTP 429 Too Many Requests", retryAfterMs: retryAfter !== undefined && Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined };
  }
  if (error instanceof HttpResponseError) return { error: `HTTP ${error.response.code} ${error.response.statusText ?? ""}`.trim() };
  return { error: `request failed: ${(error as Error)?.message ?? String(error)}` };
}

/**
 * Reads from the GraphQL Admin API for the verifier. `read` is the `http` verifier of
 * refund_readback: many refunds of one shop per `nodes(ids:)` request, batches sized so the
 * requested cost stays at or under 1,000, after waiting on the shop's bucket. Any error is a
 * failed observation for every refund of its batch, with a back-off: never evidence.
 */
export class ShopifyReader {
  private readonly gates = new Map<string, ThrottleGate>();
  private readonly costPerRefund = new Map<string, number>();
  readonly stats: ReadbackStats = { requests: 0, requestedCost: 0, throttled: 0, errors: 0 };

  /**
   * `nowMs` and `sleep` are the bucket's clock: real time by default, because Shopify's bucket
   * refills in real time, whatever clock judges the contract (a test's, a tool's). The bench
   * passes one virtual clock for both.
   */
  constructor(
    private readonly graphqlFor: (shop: string) => Promise<ShopGraphql>,
    private readonly nowMs: () => number = () => Date.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  private gate(shop: string): ThrottleGate {
    let gate = this.gates.get(shop);
    if (!gate) this.gates.set(shop, (gate = new ThrottleGate()));
    return gate;
  }

  /**
   * One GraphQL request within the shop's rate limit: waits for the bucket (up to 5 s; longer is
   * handed back as `retryAfterMs`), learns the bucket from every answer, and classifies errors.
   */
  async query(shop: string, query: string, variables: Record<string, unknown>, estimatedCost: number, options: { retryThrottled?: boolean } = {}): Promise<{ ok: true; body: GraphqlBody } | { ok: false; deferred?: boolean; error: string; retryAfterMs: number }> {
    // THROTTLED and 429 mean Shopify did not run the request, so sending it again is safe, even a
    // mutation. Timeouts and 5xx are never resent here: the request may have run.
    for (let attempt = 0; ; attempt++) {
      const answer = await this.queryOnce(shop, query, variables, estimatedCost);
      const throttled = !answer.ok && !answer.deferred && (answer.error.includes("THROTTLED") || answer.error.startsWith("HTTP 429"));
      if (!options.retryThrottled || !throttled || attempt >= 2 || answer.retryAfterMs > MAX_INLINE_WAIT_MS) return answer;
      await this.sleep(Math.max(answer.retryAfterMs, 1_000));
    }
  }

  private async queryOnce(shop: string, query: string, variables: Record<string, unknown>, estimatedCost: number): Promise<{ ok: true; body: GraphqlBody } | { ok: false; deferred?: boolean; error: string; retryAfterMs: number }> {
    let graphql: ShopGraphql;
    try {
      graphql = await this.graphqlFor(shop);
    } catch (error) {
      return { ok: false, error: `no offline session for ${shop}: ${(error as Error).message}`, retryAfterMs: 60_000 };
    }
    const gate = this.gate(shop);
    const wait = gate.waitMs(estimatedCost, this.nowMs());
    if (wait > MAX_INLINE_WAIT_MS) return { ok: false, deferred: true, error: "waiting for the shop's rate limit bucket to refill", retryAfterMs: wait };
    if (wait > 0) await this.sleep(wait);
    gate.reserve(estimatedCost, this.nowMs());
    this.stats.requests++;
    try {
      const body = await graphql(query, variables);
      gate.observe(body.extensions?.cost, this.nowMs());
      this.stats.requestedCost += body.extensions?.cost?.requestedQueryCost ?? 0;
      return { ok: true, body };
    } catch (error) {
      const failure = describeFailure(error);
      gate.observe(failure.cost, this.nowMs());
      const throttled = failure.error.includes("THROTTLED") || failure.error.startsWith("HTTP 429");
      if (throttled) this.stats.throttled++;
      else this.stats.errors++;
      const throttleWait = throttled ? Math.max(1_000, gate.waitMs(estimatedCost, this.nowMs())) : 0;
      return { ok: false, error: failure.error, retryAfterMs: failure.retryAfterMs ?? throttleWait };
    }
  }

  /** One shop's GraphQL through this reader's gate, as a function that throws what it could not read. */
  graphql(shop: string, estimatedCost: number, options: { retryThrottled?: boolean } = {}): ShopGraphql {
    return async (query, variables) => {
      const answer = await this.query(shop, query, variables, estimatedCost, options);
      if (!answer.ok) throw new Error(answer.error);
      return answer.body;
    };
  }

  /** Reads back refunds of one shop, as many per request as the cost limit allows. */
  async read(shop: string, refundGids: string[]): Promise<Map<string, ReadbackOutcome>> {
    const outcomes = new Map<string, ReadbackOutcome>();
    let remaining = [...new Set(refundGids)];
    while (remaining.length > 0) {
      const perRefund = this.costPerRefund.get(shop) ?? INITIAL_COST_PER_REFUND;
      // A worker that has not heard from this shop yet (just started, or restarted after a crash)
      // learns the bucket with one refund before it sends a full batch into it.
      const batch = remaining.slice(0, this.gate(shop).unknown ? 1 : batchSize(perRefund));
      remaining = remaining.slice(batch.length);
      const answer = await this.query(shop, REFUND_READBACK_QUERY, { ids: batch }, batch.length * perRefund);
      if (!answer.ok) {
        if (answer.deferred) {
          for (const id of [...batch, ...remaining]) outcomes.set(id, { ok: false, deferred: true, error: answer.error, retryAfterMs: answer.retryAfterMs });
          return outcomes;
        }
        for (const id of batch) outcomes.set(id, { ok: false, error: answer.error, retryAfterMs: answer.retryAfterMs });
        continue;
      }
      const cost = answer.body.extensions?.cost;
      if (cost?.requestedQueryCost) this.costPerRefund.set(shop, Math.ceil(cost.requestedQueryCost / batch.length));
      const nodes = (answer.body.data as { nodes?: unknown[] } | undefined)?.nodes;
      for (const [index, id] of batch.entries()) {
        outcomes.set(
          id,
          Array.isArray(nodes) && nodes.length === batch.length
            ? { ok: true, body: refundBody(nodes[index], cost) }
            : { ok: false, error: "malformed response: no nodes list of the requested length", retryAfterMs: 5_000 },
        );
      }
    }
    return outcomes;
  }
}
